import ControlProtocol
import DeviceActors
import Foundation
@_spi(Host) import SimulatediOS

/// The registry of hosted devices, each on its own lane (``DeviceSlot``, ``DeviceLanes``) with
/// its journal in the state directory, and the device methods' work (``DeviceRoutes``).
///
/// At start every device found in the state directory is rebuilt by replaying its journal
/// (``DeviceStateStore``): the same requests on the same build give the same device, byte for
/// byte, so a restart — clean or `kill -9` — is invisible. The replays run in the background, a
/// few at a time, while the daemon serves: a request for a device still being restored waits
/// for it, and `daemon.status` lists those (`restoring`). Device `default` is created with the
/// configured app if it was not among them.
final class DeviceService: Sendable {
    private struct Registry {
        var slots: [String: DeviceSlot] = [:]
        /// Devices being removed: a `device.create` of the same name waits until they are gone.
        var closing: [String: DeviceSlot] = [:]
        /// Devices found on disk and not restored yet.
        var restoring: Set<String> = []
    }

    private let registry = Protected(Registry())
    private let store: DeviceStateStore
    private let lanes: DeviceLanes
    /// The config a new device starts from (clarityd.json's `devices`); SIGHUP replaces it
    /// (``reload(defaults:)``): devices that exist keep theirs.
    private let defaults: Protected<DeviceConfig>
    private let defaultApp: String
    private let clockMode: ClockMode
    private let policy: CompactionPolicy
    private let replay: DeviceReplay
    /// The bytes the devices' recordings may hold together (`maxRecordingBytes`).
    private let recordings: ByteBudget
    private let log: Logger
    /// The apps this daemon runs (``AppCatalog``), as it was assembled with them.
    var catalog: AppCatalog { replay.catalog }
    /// Where devices found at start are replayed, one per core at a time; its threads end once
    /// every device is restored.
    private let restorers = WorkerThreads(
        name: "clarityd.restore", count: ProcessInfo.processInfo.activeProcessorCount, endWhenIdle: true)

    /// Device names name files: 1–64 of `A–Z a–z 0–9 . _ -`, not starting with `.` — exactly
    /// (no trailing newline, no other Unicode).
    static func isDeviceName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        let punctuation: [UInt8] = [UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-")]
        return (1...64).contains(bytes.count) && bytes.first != UInt8(ascii: ".")
            && bytes.allSatisfy { byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || punctuation.contains(byte)
            }
    }

    /// The virtual clock's default epoch: Monday 2026-01-05 09:00 UTC (project choice, so that
    /// runs without `start` are reproducible).
    static let defaultVirtualStart = "2026-01-05T09:00:00Z"

    /// How far from now a wall device's `start` may be: 366 days either way.
    static let wallStartRange: TimeInterval = 366 * 86_400

    init(
        catalog: AppCatalog, defaultApp: String, clockMode: ClockMode, defaults: DeviceConfig, store: DeviceStateStore,
        lanes: DeviceLanes, policy: CompactionPolicy, maxRecordingBytes: Int, log: Logger
    ) throws {
        replay = DeviceReplay(log: log, servers: store.servers.servers, catalog: catalog)
        recordings = ByteBudget(limit: maxRecordingBytes)
        self.lanes = lanes
        self.clockMode = clockMode
        self.defaultApp = defaultApp
        self.defaults = Protected(defaults)
        self.store = store
        self.policy = policy
        self.log = log
        let found = store.storedDevices()
        for stored in found {
            let slot = DeviceSlot(restoring: stored.name, lanes: lanes, store: store, policy: policy, replay: replay, recordings: recordings, log: log)
            registry.withLock { registry in
                registry.slots[stored.name] = slot
                registry.restoring.insert(stored.name)
            }
        }
        if registry.withLock({ $0.slots["default"] }) == nil {
            _ = try create(CreateParams(device: "default"))
        }
        if !found.isEmpty { log.info("restoring \(found.count) devices in the background") }
        for stored in found.sorted(by: { $0.journalBytes < $1.journalBytes }) {
            restorers.submit { [self] in restore(stored.name, snapshots: stored.snapshots) }
        }
    }

    /// Names of the devices, for `daemon.status`.
    var deviceNames: [String] { registry.withLock { $0.slots.keys.sorted() } }

    /// Names of the devices still being restored, for `daemon.status`.
    var restoringNames: [String] { registry.withLock { $0.restoring.sorted() } }

    /// Syncs and closes every journal (on shutdown), waiting at most `timeout` seconds for
    /// devices busy with a request. Returns false, having said why in the log, when a journal
    /// could not be synced or a device did not stop in time — its journal still holds every
    /// request that was answered.
    func flush(timeout: Double) -> Bool {
        let slots = registry.withLock { Array($0.slots.values) }
        let group = DispatchGroup()
        let failed = Protected<[String]>([])
        for slot in slots {
            // A serial queue of its own gets a thread at once, where the global pool may be busy.
            DispatchQueue(label: "clarityd.stop.\(slot.name)").async(group: group) {
                if !slot.close() { failed.withLock { $0.append(slot.name) } }
            }
        }
        guard group.wait(timeout: .now() + timeout) == .success else {
            log.error("some devices did not stop within \(Int(timeout)) s (a request still running); their journals hold every answered request")
            return false
        }
        let unsynced = failed.withLock { $0.sorted() }
        if !unsynced.isEmpty { log.error("could not sync the journals of: \(unsynced.joined(separator: ", "))") }
        return unsynced.isEmpty
    }

    /// The handler of device method `method`: `route`'s work on this registry; journal lines
    /// the answer must wait for are added to the caller's `waits`.
    func handler(for method: Method, _ route: DeviceRoute) -> Router.Handler {
        { [self] params, caller in
            switch try route.answer(self, method.rawValue, params, caller) {
            case .value(let value): MethodReply(result: value)
            case .written(let text): MethodReply(written: text)
            }
        }
    }

    /// The device called `name`.
    func slot(named name: String) throws(RPCError) -> DeviceSlot {
        guard let slot = registry.withLock({ $0.slots[name] }) else { throw RPCError.noSuchDevice(name) }
        return slot
    }

    // MARK: - Restoring

    /// Reads a stored device and rebuilds it (``DeviceReplay``) into its slot, on a restoring
    /// thread. One that cannot be read or rebuilt has its files moved aside
    /// (`.corrupt-<unix time>`), so that nothing — not a new device of the same name — writes
    /// over them, and leaves the registry. Once the last is back, memory freed by the replays is
    /// given back to the system.
    private func restore(_ name: String, snapshots: [Int]) {
        guard let slot = registry.withLock({ $0.slots[name] }) else { return }
        var replayed = 0
        do {
            let stored = try store.load(name, snapshots: snapshots)
            replayed = stored.entries.count
            if catalog.registrations[stored.appName] == nil {
                return keepUnrestored(slot, name: name, app: stored.appName)
            }
            try slot.restore(stored)
        } catch {
            let aside = store.moveAside(name)
            let moved = aside.isEmpty ? "" : "; its files were moved aside: \(aside.joined(separator: ", "))"
            log.error("device \(name) could not be restored (\(error))\(moved)")
            // The daemon always has its `default`: a fresh one stands in for one that is lost, in
            // the same slot, so that requests waiting for it are answered by the new one.
            if name == "default", (try? startAfresh(slot)) != nil {
                log.info("device default created afresh")
            } else {
                slot.abandon()
                registry.withLock { registry in
                    if registry.slots[name] === slot { registry.slots[name] = nil }
                }
            }
            registry.withLock { _ = $0.restoring.remove(name) }
            return
        }
        let left = registry.withLock { registry in
            registry.restoring.remove(name)
            return registry.restoring.count
        }
        slot.startWallClock()
        let summary = (try? slot.look { "\($0.appName), t=\($0.now.t)" }) ?? "removed meanwhile"
        log.info("device \(name) restored (\(summary), \(replayed) requests replayed)")
        if left == 0 {
            SystemCall.returnFreedMemory()
            log.info("every device is restored")
        }
    }

    /// A device whose app this daemon was not assembled with (a journal of a daemon with more
    /// apps): its files stay as they are, and its name stays taken (a `device.create` of it is
    /// refused, so nothing writes over them); requests for it get -32000 until a daemon with the
    /// app starts. `device.remove` deletes it.
    private func keepUnrestored(_ slot: DeviceSlot, name: String, app: String) {
        log.error(
            "device \(name) runs \(app), which this daemon was not given (it runs \(catalog.available.joined(separator: ", "))): its files are kept as they are, unrestored")
        slot.abandon()
        registry.withLock { _ = $0.restoring.remove(name) }
    }

    /// Gives a slot whose device could not be restored a new device of its name, as
    /// `device.create` would make it.
    private func startAfresh(_ slot: DeviceSlot) throws {
        var creation = try resolve(CreateParams(device: slot.name))
        let device = try replay.make(creation, replaying: false)
        creation.network = device.connection?.takeExchanges().nonEmpty
        try store.servers.saveChanged()
        try slot.start(device, journal: store.create(creation))
    }

    // MARK: - The registry's methods

    /// New devices start from `defaults` from now on (a config reload); devices that exist keep
    /// the config they were made with.
    func reload(defaults: DeviceConfig) {
        self.defaults.withLock { $0 = defaults }
    }

    /// `device.create`: resolves the request against the daemon's defaults, makes the device,
    /// and starts its journal with what was resolved.
    func create(_ params: CreateParams) throws -> DeviceSummary {
        var creation = try resolve(params)
        let device: SimulatedDevice
        do {
            device = try replay.make(creation, replaying: false)
        } catch {
            throw RPCError(error)
        }
        creation.network = device.connection?.takeExchanges().nonEmpty
        do {
            try store.servers.saveChanged()
        } catch {
            throw RPCError.storageFailed("device \(creation.name)'s backend could not be saved, so it was not created", reason: "\(error)")
        }
        let slot = DeviceSlot(device: device, lanes: lanes, store: store, policy: policy, replay: replay, recordings: recordings, log: log)
        do {
            try attach(slot, named: creation.name) { try store.create(creation) }
        } catch {
            slot.close()
            throw error
        }
        slot.startWallClock()
        log.info("device \(creation.name) created (\(creation.app), \(creation.clock.rawValue) clock, seed \(creation.seed))")
        return device.summary
    }

    /// `scenario.replay … until`: registers the device a replay left standing, its journal
    /// starting with how it was made (``ReplayOrigin``), so that a restart makes it again.
    /// -32001 when the name is taken.
    func register(replayed device: SimulatedDevice, origin: ReplayOrigin) throws -> DeviceSummary {
        let slot = DeviceSlot(device: device, lanes: lanes, store: store, policy: policy, replay: replay, recordings: recordings, log: log)
        do {
            try attach(slot, named: origin.name) { try store.create(replayed: origin) }
        } catch {
            slot.close()
            throw error
        }
        log.info("device \(origin.name) created where a replay stopped (\(origin.app), \(origin.decision.map { "decision \($0)" } ?? "its end"))")
        return device.summary
    }

    /// Registers `slot` under `name` and starts its journal with `start`; when the name is
    /// taken, or the journal cannot be written, `slot` is not registered. Both happen on the
    /// device's lane, so that a request that finds the new device waits until it has a journal.
    /// A device of the name still being removed (by a request that is not on the lane: a batch
    /// member) is removed here, on its behalf, files and all; its own `close` then finds that done.
    private func attach(_ slot: DeviceSlot, named name: String, journal start: () throws -> DeviceJournal) throws {
        try slot.attach {
            while true {
                let waitFor: DeviceSlot? = try registry.withLock { registry throws(RPCError) in
                    if registry.slots[name] != nil { throw RPCError.deviceExists(name) }
                    if let closing = registry.closing[name] { return closing }
                    registry.slots[name] = slot
                    return nil
                }
                guard let waitFor else { break }
                waitFor.close(deletingFiles: true)
                registry.withLock { if $0.closing[name] === waitFor { $0.closing[name] = nil } }
            }
            do {
                return try start()
            } catch {
                registry.withLock { $0.slots[name] = nil }
                log.error("device \(name) could not be saved: \(error)")
                throw RPCError.storageFailed("device \(name) could not be saved, so it was not created", reason: "\(error)")
            }
        }
    }

    private func resolve(_ params: CreateParams) throws(RPCError) -> DeviceCreation {
        let name = params.device ?? "default"
        guard Self.isDeviceName(name) else {
            throw RPCError.invalidParams(field: "device", reason: "1–64 letters, digits, '.', '_' or '-', not starting with '.'")
        }
        let apps = try installedApps(params)
        let app = apps[0]
        let clock = try params.clock.map { value throws(RPCError) -> ClockMode in
            guard let mode = ClockMode(rawValue: value) else {
                throw RPCError.invalidParams(field: "clock", reason: "must be virtual or wall")
            }
            return mode
        } ?? clockMode
        let start: String
        if let text = params.start {
            guard let date = DeviceCalendar.parseISO(text) else {
                throw RPCError.invalidParams(field: "start", reason: "expected an ISO-8601 time like 2026-01-05T09:00:00Z")
            }
            // A wall device far from now would spend its life catching up (or standing still).
            guard clock == .virtual || abs(date.timeIntervalSinceNow) <= Self.wallStartRange else {
                throw RPCError.invalidParams(
                    field: "start",
                    reason: "a wall device starts within a year of now (\(DeviceCalendar.isoString(Date() - Self.wallStartRange)) to \(DeviceCalendar.isoString(Date() + Self.wallStartRange)))")
            }
            start = DeviceCalendar.isoString(date)
        } else {
            start = clock == .wall ? DeviceCalendar.isoString(Date()) : Self.defaultVirtualStart
        }
        let timezone = params.timezone ?? "UTC"
        guard TimeZone(identifier: timezone) != nil else {
            throw RPCError.invalidParams(field: "timezone", reason: "unknown time zone \(timezone)")
        }
        var config = defaults.withLock { $0 }
        if let overrides = params.config {
            do {
                config = try config.applying(overrides)
            } catch {
                throw RPCError(error.inside("config"))
            }
        }
        if let platform = params.platform {
            guard let chosen = DevicePlatform(rawValue: platform) else {
                throw RPCError.invalidParams(field: "platform", reason: "one of ios, android")
            }
            if let inConfig = params.config?.platform, inConfig != chosen {
                throw RPCError.invalidParams(
                    field: "platform", reason: "\(platform), but config.platform is \(inConfig.rawValue): give one, or the same in both")
            }
            config.platform = chosen
        }
        for (index, app) in apps.enumerated() where !catalog.runs(app, on: config.platform) {
            let given = params.platform != nil || params.config?.platform != nil
            throw RPCError.invalidParams(
                field: params.apps != nil ? "apps[\(index)]" : params.platform != nil || !given ? "platform" : "config.platform",
                reason: "\(app) has no \(config.platform.rawValue) client (\(config.platform.rawValue): \(catalog.apps(on: config.platform)))"
                    + (given ? "" : "; \(config.platform.rawValue) is clarityd.json's default platform: give platform ios"))
        }
        // The primary's settings are checked before anything is made: a refused device leaves no
        // instance of its server behind.
        do {
            try catalog.check(config, for: app)
        } catch {
            throw RPCError(error)
        }
        return DeviceCreation(
            name: name, app: app, apps: apps.count > 1 ? apps : nil, start: start, timezone: timezone, seed: params.seed ?? 0,
            clock: clock, config: config)
    }

    /// `app`, or the daemon's default app, or the list `apps` (one to ten, each once), every one
    /// an app this daemon runs.
    private func installedApps(_ params: CreateParams) throws(RPCError) -> [String] {
        let apps: [String]
        let field: (Int) -> String
        switch (params.app, params.apps) {
        case (.some, .some):
            throw RPCError.invalidParams(field: "apps", reason: "give app or apps, not both")
        case (_, .some(let list)):
            guard (1...10).contains(list.count) else { throw RPCError.invalidParams(field: "apps", reason: "one to ten app names") }
            if let twice = list.indices.first(where: { list[..<$0].contains(list[$0]) }) {
                throw RPCError.invalidParams(field: "apps[\(twice)]", reason: "\(list[twice]) is listed twice")
            }
            (apps, field) = (list, { "apps[\($0)]" })
        case (let app, nil):
            (apps, field) = ([app ?? defaultApp], { _ in "app" })
        }
        for (index, app) in apps.enumerated() {
            guard !app.isEmpty else {
                throw RPCError.invalidParams(field: field(index), reason: "an app's name, one of \(catalog.available.joined(separator: ", "))")
            }
            guard catalog.registrations[app] != nil else {
                var error = RPCError.unknownName(kind: "app", name: app, known: catalog.available)
                if params.apps != nil, case .object(var data)? = error.data {
                    data["field"] = .string(field(index))
                    error = RPCError(code: error.code, message: error.message, data: .object(data))
                }
                throw error
            }
        }
        return apps
    }

    /// `device.remove`: waits for the request running on the device, then deletes its files; a
    /// `device.create` of the same name meanwhile waits until they are gone.
    func remove(_ name: String) throws -> OK {
        let slot = try registry.withLock { registry throws(RPCError) -> DeviceSlot in
            guard let slot = registry.slots.removeValue(forKey: name) else { throw RPCError.noSuchDevice(name) }
            registry.closing[name] = slot
            return slot
        }
        slot.close(deletingFiles: true)
        registry.withLock { if $0.closing[name] === slot { $0.closing[name] = nil } }
        log.info("device \(name) removed")
        return OK()
    }

    /// The instances the device `name` talks to (the servers of its apps, in order); empty when
    /// there is no such device or none of its apps brings a server. Waits for the device's lane
    /// (a device being restored: until it is back), so it is asked off the event loop.
    func serverInstances(ofDevice name: String) -> [ServerHost] {
        let slot = registry.withLock { $0.slots[name] }
        return (try? slot?.look { $0.connection?.servers ?? [] }) ?? []
    }

    /// `device.list`.
    func list() -> [DeviceSummary] {
        let all = registry.withLock { $0.slots.values.sorted { $0.name < $1.name } }
        return all.compactMap { slot in try? slot.look { $0.summary } }
    }

    struct OK: Encodable { let ok = true }
}

extension RPCError {
    /// The protocol error for a device's refusal (docs/protocol.md, Errors).
    init(_ error: DeviceError) {
        switch error {
        case .invalidArgument(let field, let reason): self = .invalidParams(field: field, reason: reason)
        // Only a device whose app this daemon was not assembled with (its journal restored by a
        // daemon without it) meets this: `device.create` names the available apps itself.
        case .unknownApp(let name): self = .unknownName(kind: "app", name: name, known: [])
        case .unknownEvent(let name): self = .unknownName(kind: "event", name: name, known: DeviceEvent.types)
        case .unknownIntent(let name, let known): self = .unknownName(kind: "intent", name: name, known: known)
        case .refused(let reason, let message): self = .refused(reason: reason, message: message)
        case .internalFailure(let detail): self = .internalError(detail)
        }
    }
}
