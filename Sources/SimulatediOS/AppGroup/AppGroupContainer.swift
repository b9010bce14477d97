import ExtensionSandbox
import Foundation

/// The App Group containers of the device: one `UserDefaults` suite per app group, shared by
/// the main app and its three extensions (docs/platform.md). An actor, so every read and
/// write is a scheduling point where cross-extension races can happen. Writes are traced; reads
/// are traced when an extension makes them (they are charged to its memory ledger).
///
/// Two platform quirks live here (off by default, docs/decisions.md):
/// - `lateDefaultsPropagation`: an extension's write is seen by its own process at once and by
///   the others only after ``propagationDelay``; if that process has ended by then (the monitor
///   ends after every callback; jetsam), the write is lost (`store.writeLost`), unless the
///   extension called `synchronize()`.
/// - `emptyDefaultsBeforeFirstUnlock`: after a reboot and before the first unlock, extensions
///   read every key as absent (data protection); writes still land.
///
/// With the race detector on (config `raceDetector`), main-app reads are traced too, so every
/// read a lost update names is in the trace, and each write that reaches the store is checked
/// by ``LostUpdateDetector``; a lost update is traced as `race` under the writer.
///
/// A device made with `tracesEveryRead` (a scenario's schedule, ``DeviceRunOptions``) traces
/// every read a process makes, the main app's too, with the value it returned (`seen`): what a
/// failure's story and the reads-from relation need. A main-app read traced only for that is
/// recorded quietly (``DeviceTrace/recordQuietly(_:)``): tracing it is no scheduling point and
/// wakes no `waitUntil`, so the schedule's decisions are those of a device without it.
@_spi(Host) public actor AppGroupContainer: WorldActor {
    /// Made with ``WorldActorExecutor/notesAccesses``: every method notes what it touches
    /// (``Scheduler/note(_:)``), a suite's key, so that `dfs` knows that writes of different keys
    /// by different processes commute. The race detector's bookkeeping follows the keys too.
    @_spi(Host) public nonisolated let executor: WorldActorExecutor
    private let trace: DeviceTrace
    private let clock: VirtualClock
    @_spi(Host) public private(set) var suites: [String: [String: StoredValue]]
    private var staged: [StagedWrite] = []
    /// Each actor's registration domain (``register(defaults:)``) and the launch that made it.
    private var registered: [String: (launch: Int, values: [String: StoredValue])] = [:]
    /// Set when `lateDefaultsPropagation` is on.
    private var propagationDelay: VirtualDuration?
    private var emptyBeforeFirstUnlock = false
    /// False from a reboot to the first unlock (kept in a snapshot: the device has not rebooted
    /// at a compaction).
    @_spi(Host) public private(set) var unlockedSinceBoot = true
    /// Set when the race detector is on.
    private var raceDetector: LostUpdateDetector?
    /// Every read is traced, with its value.
    private let tracesEveryRead: Bool

    /// An extension's write that other processes don't see yet.
    private struct StagedWrite {
        let suite: String
        let key: String
        let value: StoredValue?
        let writer: CallbackContext
        /// The trace seq of its `store.write` or `store.remove`.
        let seq: Int
        let visibleAt: VirtualInstant

        func isFrom(_ context: CallbackContext?) -> Bool {
            guard let context, let sandbox = context.sandbox, let mine = writer.sandbox else { return false }
            return sandbox === mine && context.generation == writer.generation
        }
    }

    @_spi(Host) public init(
        executor: WorldActorExecutor, trace: DeviceTrace, clock: VirtualClock, tracesEveryRead: Bool = false
    ) {
        self.executor = executor
        self.trace = trace
        self.clock = clock
        self.tracesEveryRead = tracesEveryRead
        self.suites = [:]
    }

    /// Switching the race detector off forgets what it knew; switching it on starts afresh.
    @_spi(Host) public func configure(propagationDelay: VirtualDuration?, emptyBeforeFirstUnlock: Bool, detectRaces: Bool) {
        Scheduler.note(Self.settings(writes: true))
        self.propagationDelay = propagationDelay
        self.emptyBeforeFirstUnlock = emptyBeforeFirstUnlock
        if !detectRaces {
            raceDetector = nil
        } else if raceDetector == nil {
            raceDetector = LostUpdateDetector()
        }
    }

    /// The device rebooted (false) or was unlocked (true).
    @_spi(Host) public func setUnlockedSinceBoot(_ unlocked: Bool) {
        Scheduler.note(Self.settings(writes: true))
        unlockedSinceBoot = unlocked
    }

    /// The container's settings and lock state, which every read and write consults.
    private static func settings(writes: Bool) -> Access { Access("AppGroupContainer settings", writes: writes) }

    @_spi(Host) public func value(suite: String, key: String) -> StoredValue? {
        Scheduler.note(Self.settings(writes: false))
        Scheduler.note(Access(suite, key, writes: false))
        let context = CallbackContext.current
        let stored = suites[suite]?[key]
        let value: StoredValue?
        let view: LostUpdateDetector.ReadView
        if emptyBeforeFirstUnlock, !unlockedSinceBoot, context?.sandbox != nil {
            value = nil
            view = stored == nil ? .store : .blanked
        } else if let own = staged.last(where: { $0.suite == suite && $0.key == key && $0.isFrom(context) }) {
            value = own.value
            view = .ownPendingWrite
        } else {
            value = stored
            view = .store
        }
        guard let context else { return value }
        let seen = tracesEveryRead ? ReadValue(value) : nil
        if context.sandbox != nil || raceDetector != nil {
            let seq = trace.record(.storeRead(suite: suite, key: key, bytes: value?.encodedSize ?? 0, seen: seen))
            raceDetector?.read(in: context, suite: suite, key: key, seq: seq, view: view)
        } else if let seen {
            _ = trace.recordQuietly(.storeRead(suite: suite, key: key, bytes: value?.encodedSize ?? 0, seen: seen))
        }
        return value
    }

    @_spi(Host) public func set(_ value: StoredValue?, suite: String, key: String) {
        Scheduler.note(Self.settings(writes: false))
        Scheduler.note(Access(suite, key, writes: true))
        let context = CallbackContext.current
        let seq =
            if let value {
                trace.record(.storeWrite(suite: suite, key: key, value: value))
            } else {
                trace.record(.storeRemove(suite: suite, key: key))
            }
        if let propagationDelay, let context, context.sandbox != nil {
            let visibleAt = clock.now + propagationDelay
            staged.append(StagedWrite(suite: suite, key: key, value: value, writer: context, seq: seq, visibleAt: visibleAt))
            clock.schedule(at: visibleAt, label: "defaultsPropagation") { [self] in await self.propagate() }
        } else {
            commit(value, suite: suite, key: key, writer: context, seq: seq)
        }
    }

    /// `synchronize()`: the calling process's pending writes reach the store now.
    @_spi(Host) public func synchronize() {
        let context = CallbackContext.current
        let mine = staged.filter { $0.isFrom(context) }
        staged.removeAll { $0.isFrom(context) }
        for write in mine { commit(write) }
    }

    /// Writes whose delay has passed reach the store, or are lost if their process has ended.
    private func propagate() {
        let now = clock.now
        let due = staged.filter { $0.visibleAt <= now }
        staged.removeAll { $0.visibleAt <= now }
        for write in due {
            if let sandbox = write.writer.sandbox, !sandbox.isRunning(generation: write.writer.generation) {
                trace.record(.storeWriteLost(suite: write.suite, key: write.key), by: write.writer.actor)
            } else {
                commit(write)
            }
        }
    }

    private func commit(_ write: StagedWrite) {
        Scheduler.note(Access(write.suite, write.key, writes: true))
        commit(write.value, suite: write.suite, key: write.key, writer: write.writer, seq: write.seq)
    }

    /// A write reaches the store; the race detector checks it and traces the lost update it
    /// caused under the writer (after its `store.write`, which may be earlier when it propagated late).
    private func commit(_ value: StoredValue?, suite: String, key: String, writer: CallbackContext?, seq: Int) {
        suites[suite, default: [:]][key] = value
        guard let lost = raceDetector?.commit(in: writer, suite: suite, key: key, writeSeq: seq) else { return }
        CallbackContext.$current.withValue(writer) { trace.record(.race(lost)) }
    }

    @_spi(Host) public func dump(suite: String) -> [String: StoredValue] {
        Scheduler.note(Access(suite, writes: false))
        return suites[suite] ?? [:]
    }

    /// `register(defaults:)`: the calling process's registration domain, read when a suite has
    /// no value for a key. As on iOS it belongs to the process (every suite it opens sees it), is
    /// never stored, and is not seen by any other process: a relaunched process (an extension's
    /// new generation, the main app after `app.terminate`) starts without one.
    func register(defaults: [String: StoredValue], actor: String, launch: Int) {
        var domain = registered[actor].flatMap { $0.launch == launch ? $0 : nil } ?? (launch: launch, values: [:])
        domain.values.merge(defaults) { _, new in new }
        registered[actor] = domain
    }

    /// What `actor`'s launch `launch` registered for `key`, if anything (nothing from an earlier launch).
    func registeredDefault(forKey key: String, actor: String, launch: Int) -> StoredValue? {
        guard let domain = registered[actor], domain.launch == launch else { return nil }
        return domain.values[key]
    }

    @_spi(Host) public func restore(suite: String, values: [String: StoredValue]) {
        Scheduler.note(Access(suite, writes: true))
        suites[suite] = values
    }
}

/// `UserDefaults(suiteName:)` for simulated code: a handle on one App Group suite.
///
/// Every call is a platform call: it checks that the calling extension is still alive (a
/// jetsammed callback is cut here) and, for reads, charges the value's encoded size to the
/// callback's memory ledger for the rest of the callback.
public struct AppGroupDefaults: Sendable {
    public let suiteName: String
    @_spi(Host) public let container: AppGroupContainer
    /// The main app's launches, which end its registration domain as an extension's relaunch does.
    @_spi(Host) public let mainApp: MainAppLife

    /// The calling process as the registration domain knows it: its actor and which launch.
    private var process: (actor: String, launch: Int) {
        let context = CallbackContext.current
        return (context?.actor ?? "", context?.sandbox == nil ? mainApp.current : context?.generation ?? 0)
    }

    /// `object(forKey:)`: the suite's value, else what this process registered
    /// (``register(defaults:)``), else nil.
    public func object(forKey key: String) async throws -> StoredValue? {
        try CallbackContext.platformCall(VisibleOperation("read", suiteName, key))
        var value = await container.value(suite: suiteName, key: key)
        if value == nil {
            let process = process
            value = await container.registeredDefault(forKey: key, actor: process.actor, launch: process.launch)
        }
        try CallbackContext.current?.charge(bytes: value?.encodedSize ?? 0)
        return value
    }

    /// `register(defaults:)`: values `object(forKey:)` and the typed getters answer for keys the
    /// suite does not hold. Process-local and never stored, as on iOS: other extensions don't see
    /// them, `store get` doesn't show them, and a relaunched extension must register again.
    public func register(defaults: [String: StoredValue]) async throws {
        try CallbackContext.current?.checkpoint()
        let process = process
        await container.register(defaults: defaults, actor: process.actor, launch: process.launch)
    }

    /// `bool(forKey:)`: false when absent, as `UserDefaults`.
    public func bool(forKey key: String) async throws -> Bool {
        try await object(forKey: key)?.boolValue ?? false
    }

    /// `integer(forKey:)`: 0 when absent.
    public func integer(forKey key: String) async throws -> Int {
        try await object(forKey: key)?.intValue ?? 0
    }

    public func string(forKey key: String) async throws -> String? {
        try await object(forKey: key)?.stringValue
    }

    public func data(forKey key: String) async throws -> Data? {
        try await object(forKey: key)?.dataValue
    }

    /// `double(forKey:)`: 0 when absent or not a number.
    public func double(forKey key: String) async throws -> Double {
        try await object(forKey: key)?.doubleValue ?? 0
    }

    /// `float(forKey:)`: 0 when absent or not a number.
    public func float(forKey key: String) async throws -> Float {
        Float(try await double(forKey: key))
    }

    /// `array(forKey:)`: nil unless the value is an array.
    public func array(forKey key: String) async throws -> [StoredValue]? {
        guard case .array(let items) = try await object(forKey: key) else { return nil }
        return items
    }

    /// `dictionary(forKey:)`: nil unless the value is a dictionary.
    public func dictionary(forKey key: String) async throws -> [String: StoredValue]? {
        guard case .dictionary(let members) = try await object(forKey: key) else { return nil }
        return members
    }

    /// `url(forKey:)`: a string holding an absolute URL (or a file path, read as a file URL, as
    /// iOS does); nil otherwise.
    public func url(forKey key: String) async throws -> URL? {
        guard let text = try await object(forKey: key)?.stringValue else { return nil }
        if text.hasPrefix("/") || text.hasPrefix("~") { return URL(fileURLWithPath: (text as NSString).expandingTildeInPath) }
        return URL(string: text).flatMap { $0.scheme == nil ? nil : $0 }
    }

    /// `stringArray(forKey:)`: an array whose every element is a string; nil otherwise.
    public func stringArray(forKey key: String) async throws -> [String]? {
        guard case .array(let items) = try await object(forKey: key) else { return nil }
        let strings = items.compactMap { item -> String? in
            if case .string(let string) = item { return string }
            return nil
        }
        return strings.count == items.count ? strings : nil
    }

    public func set(_ value: StoredValue, forKey key: String) async throws {
        try CallbackContext.platformCall(VisibleOperation("write", suiteName, key))
        await container.set(value, suite: suiteName, key: key)
    }

    /// `set(_:forKey:)` with a Swift value, as iOS's overloads take them.
    public func set(_ value: Bool, forKey key: String) async throws { try await set(.bool(value), forKey: key) }
    public func set(_ value: Int, forKey key: String) async throws { try await set(.int(value), forKey: key) }
    public func set(_ value: Double, forKey key: String) async throws { try await set(.double(value), forKey: key) }
    public func set(_ value: String, forKey key: String) async throws { try await set(.string(value), forKey: key) }
    public func set(_ value: Data, forKey key: String) async throws { try await set(.data(value), forKey: key) }
    public func set(_ value: URL, forKey key: String) async throws { try await set(.string(value.absoluteString), forKey: key) }
    public func set(_ value: [String], forKey key: String) async throws {
        try await set(.array(value.map(StoredValue.string)), forKey: key)
    }

    public func removeObject(forKey key: String) async throws {
        try CallbackContext.platformCall(VisibleOperation("remove", suiteName, key))
        await container.set(nil, suite: suiteName, key: key)
    }

    /// `synchronize()`: pushes this process's pending writes to the store now (matters only
    /// under the `lateDefaultsPropagation` quirk).
    public func synchronize() async throws {
        try CallbackContext.platformCall(VisibleOperation("synchronize", suiteName))
        await container.synchronize()
    }
}
