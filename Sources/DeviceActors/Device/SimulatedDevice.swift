import ExtensionSandbox
import Foundation
@_spi(Host) import SimulatediOS

/// One simulated iPhone running one app: a world (scheduler, virtual clock, seeded randomness),
/// the platform actors, the app's main app and its three sandboxed extensions.
///
/// Every method runs the world on the calling thread until it is idle and returns what the user
/// would see. Not thread-safe by design: the caller serialises access (the daemon gives each
/// device a serial queue). Same inputs + same seed + same build ⇒ the same trace, byte for byte,
/// which is how the daemon keeps devices: as their inputs, replayed at start (``mark`` tells it
/// what a request changed, and lets a replay check that it retraces the device's steps).
public final class SimulatedDevice: @unchecked Sendable {
    public let name: String
    public let appName: String
    public let seed: UInt64
    public let clockMode: ClockMode
    public let calendar: DeviceCalendar
    public private(set) var config: DeviceConfig
    /// Bumped by every ``updateConfig(_:)``.
    private var configRevision = 0

    let world: World
    let trace: DeviceTrace
    let platform: Platform
    let app: any SimulatedApp
    let springBoard: SpringBoard

    /// - Parameter traceSequence: the sequence number the trace continues after (a device
    ///   restored from a snapshot goes on numbering where it stopped).
    /// - Parameter strategy: how the world picks among ready jobs: FIFO for a device, an
    ///   exploring strategy for a scenario's schedule; `recordsSchedule` keeps every pick.
    public convenience init(
        name: String, app appName: String, start: Date, timeZone: TimeZone, timeZoneName: String? = nil, seed: UInt64,
        clock: ClockMode, config: DeviceConfig, launch: Bool = true, traceSequence: Int = 0,
        strategy: any SchedulingStrategy = FIFOStrategy(), recordsSchedule: Bool = false
    ) throws(DeviceError) {
        guard let registration = AppCatalog.registrations[appName] else { throw .unknownApp(appName) }
        try self.init(
            name: name, appName: appName, start: start, timeZone: timeZone, timeZoneName: timeZoneName, seed: seed,
            clock: clock, config: config, launch: launch, traceSequence: traceSequence, strategy: strategy,
            recordsSchedule: recordsSchedule
        ) { platform, world throws(DeviceError) in try registration.make(platform, config, world) }
    }

    /// A device running an app that is not in ``AppCatalog`` (an app author's own, in a test):
    /// `makeApp` builds it on the device's platform. `appName` prefixes its processes' names in
    /// the trace (`<appName>.app`, `<appName>.monitor`…).
    public init(
        name: String, appName: String, start: Date, timeZone: TimeZone, timeZoneName: String? = nil, seed: UInt64,
        clock: ClockMode, config: DeviceConfig, launch: Bool = true, traceSequence: Int = 0,
        strategy: any SchedulingStrategy = FIFOStrategy(), recordsSchedule: Bool = false,
        makeApp: (Platform, World) throws(DeviceError) -> any SimulatedApp
    ) throws(DeviceError) {
        self.name = name
        self.appName = appName
        self.seed = seed
        self.clockMode = clock
        self.config = config
        let calendar = DeviceCalendar(start: start, timeZone: timeZone, name: timeZoneName)
        self.calendar = calendar
        let world = World(seed: seed, strategy: strategy)
        world.scheduler.recordsChoices = recordsSchedule
        self.world = world
        let trace = DeviceTrace(clock: world.clock, lastSequence: traceSequence)
        self.trace = trace
        let catalog = CategoryCatalog.builtIn.merging(config.apps)
        let deviceActivity = DeviceActivityAgent(
            executor: world.makeExecutor(label: "deviceActivity"), clock: world.clock, tasks: world.tasks, calendar: calendar,
            catalog: catalog, trace: trace)
        let platform = Platform(
            appGroups: AppGroupContainer(executor: world.makeExecutor(label: "appGroups"), trace: trace, clock: world.clock),
            managedSettings: ManagedSettingsAgent(
                executor: world.makeExecutor(label: "managedSettings"), trace: trace, catalog: catalog),
            deviceActivity: deviceActivity,
            notifications: NotificationAgent(
                executor: world.makeExecutor(label: "notifications"), clock: world.clock, trace: trace),
            system: SystemAgent(executor: world.makeExecutor(label: "system"), trace: trace),
            storeKit: StoreKitAgent(executor: world.makeExecutor(label: "storeKit"), trace: trace, clock: world.clock),
            world: world, trace: trace, calendar: calendar, catalog: catalog)
        self.platform = platform
        let app = try makeApp(platform, world)
        self.app = app
        let prefix = appName
        let monitor = Sandbox<any DeviceActivityMonitor>(
            name: "monitor", actorName: "\(prefix).monitor", budgetBytes: config.memoryBudgets.monitor,
            baselineBytes: config.baselineBytes, lifecycle: .terminateAfterCallback,
            factory: { app.makeMonitor(executor: world.makeExecutor(label: "\(prefix).monitor")) },
            onEvent: { trace.record($0, actor: "\(prefix).monitor", sandbox: "monitor") })
        let shieldConfiguration = Sandbox<any ShieldConfigurationDataSource>(
            name: "shieldConfiguration", actorName: "\(prefix).shieldConfiguration",
            budgetBytes: config.memoryBudgets.shieldConfiguration, baselineBytes: config.baselineBytes,
            lifecycle: .stayResident,
            factory: { app.makeShieldConfiguration(executor: world.makeExecutor(label: "\(prefix).shieldConfiguration")) },
            onEvent: { trace.record($0, actor: "\(prefix).shieldConfiguration", sandbox: "shieldConfiguration") })
        let shieldAction = Sandbox<any ShieldActionDelegate>(
            name: "shieldAction", actorName: "\(prefix).shieldAction", budgetBytes: config.memoryBudgets.shieldAction,
            baselineBytes: config.baselineBytes, lifecycle: .stayResident,
            factory: { app.makeShieldAction(executor: world.makeExecutor(label: "\(prefix).shieldAction")) },
            onEvent: { trace.record($0, actor: "\(prefix).shieldAction", sandbox: "shieldAction") })
        let springBoard = SpringBoard(
            executor: world.makeExecutor(label: "springBoard"), platform: platform, app: app, trace: trace,
            monitor: monitor, shieldConfiguration: shieldConfiguration, shieldAction: shieldAction,
            mainAppActor: "\(prefix).app")
        self.springBoard = springBoard
        try run {
            await Self.applyQuirks(config, platform: platform)
            await deviceActivity.setDelivery { [weak springBoard] callback in await springBoard?.deliverToMonitor(callback) }
            await springBoard.install()
        }
        if launch { try launchApp() }
    }

    /// A device let go of frees its world: its timers (which hold the actors that hold the
    /// world) are dropped.
    deinit {
        world.clock.cancelAll()
    }

    /// Runs the main app's launch (cleanup, timers), as iOS does at app start.
    private func launchApp() throws(DeviceError) {
        let springBoard = springBoard
        let app = app
        try run { try await springBoard.runMainApp { try await app.launch() } }
    }

    /// Rebuilds a device saved by ``snapshot()``, at the saved virtual time, its random
    /// generator and trace numbering going on where they stopped. No callback is replayed; the
    /// main app is launched again (it re-arms its timers), so what runs in memory only — an
    /// extension kept resident, the order of two timers due at the same instant — starts afresh.
    public convenience init(restoring snapshot: DeviceSnapshot) throws(DeviceError) {
        guard let start = DeviceCalendar.parseISO(snapshot.start) else {
            throw .invalidArgument(field: "start", reason: "not an ISO-8601 time")
        }
        guard let timeZone = TimeZone(identifier: snapshot.timezone) else {
            throw .invalidArgument(field: "timezone", reason: "unknown time zone")
        }
        try self.init(
            name: snapshot.name, app: snapshot.app, start: start, timeZone: timeZone, timeZoneName: snapshot.timezone,
            seed: snapshot.seed, clock: snapshot.clock, config: snapshot.config, launch: false,
            traceSequence: snapshot.traceSequence ?? 0)
        if let state = snapshot.random { world.random = SeededRandom(seed: UInt64(bitPattern: state)) }
        do {
            try world.advance(to: VirtualInstant(milliseconds: snapshot.nowMilliseconds))
        } catch {
            throw .internalFailure("\(error)")
        }
        let platform = platform
        let springBoard = springBoard
        let app = app
        try run {
            for (suite, values) in snapshot.suites {
                await platform.appGroups.restore(suite: suite, values: values)
            }
            await platform.managedSettings.restore(stores: snapshot.managedSettings)
            await platform.deviceActivity.restore(activities: snapshot.activities, usageByDay: snapshot.usageByDay)
            await platform.storeKit.restore(transactions: snapshot.storeTransactions ?? [])
            if let data = snapshot.appData { try await app.restore(from: data) }
            await springBoard.restore(
                locked: snapshot.locked, foregroundApp: snapshot.foregroundApp, wifi: snapshot.wifi,
                contacts: snapshot.contacts, call: snapshot.call)
        }
        try launchApp()
    }

    /// Tells the platform actors the config's authorization, quirks and race detector.
    private static func applyQuirks(_ config: DeviceConfig, platform: Platform) async {
        await platform.deviceActivity.configure(
            authorized: config.familyControlsAuthorized, thresholdFiresOnStart: config.quirk("thresholdFiresOnStart"),
            thresholdBatchInterval: config.quirk("batchedThresholds")
                ? .seconds(Double(config.thresholdBatchIntervalSeconds)) : nil)
        await platform.appGroups.configure(
            propagationDelay: config.quirk("lateDefaultsPropagation")
                ? .seconds(Double(config.defaultsPropagationDelaySeconds)) : nil,
            emptyBeforeFirstUnlock: config.quirk("emptyDefaultsBeforeFirstUnlock"), detectRaces: config.raceDetector)
    }

    // MARK: - Inputs

    public func apply(_ event: DeviceEvent) throws(DeviceError) -> DeviceOutcome {
        let springBoard = springBoard
        return try outcome { try await springBoard.handle(event) }
    }

    /// `clock.advance`: moves virtual time forward, firing everything due on the way.
    public func advance(seconds: Double) throws(DeviceError) -> DeviceOutcome {
        guard seconds > 0, seconds.isFinite else {
            throw .invalidArgument(field: "seconds", reason: "must be a number > 0")
        }
        let from = trace.recorder.lastSequence
        let target = world.clock.now + .seconds(seconds)
        trace.record(.clockAdvance(seconds: seconds), by: "clock")
        try moveClock(to: target)
        return finish(from: from)
    }

    /// Wall mode: advances virtual time towards `date` by at most `limit` milliseconds, quietly:
    /// time passing is not an input, so no `clock.advance` is traced (what falls due on the way
    /// is). Returns whether the device got to `date` (already there counts). The limit lets the
    /// daemon catch a device up a day at a time, answering requests in between.
    @discardableResult
    public func advanceWall(to date: Date, atMostMilliseconds limit: Int64 = .max) throws(DeviceError) -> Bool {
        let target = calendar.instant(date).milliseconds
        let now = world.clock.now.milliseconds
        let (reach, overflow) = now.addingReportingOverflow(max(0, limit))
        let step = overflow ? target : min(target, reach)
        try catchUp(toMilliseconds: step)
        return step == target
    }

    /// Moves virtual time to `milliseconds` as ``advanceWall(to:)`` does: the daemon replays a
    /// wall device's journal by catching up to the time each request ran at.
    public func catchUp(toMilliseconds milliseconds: Int64) throws(DeviceError) {
        let target = VirtualInstant(milliseconds: milliseconds)
        guard target > world.clock.now else { return }
        try moveClock(to: target)
    }

    private func moveClock(to target: VirtualInstant) throws(DeviceError) {
        do {
            try world.advance(to: target)
        } catch let error as WorldError {
            throw Self.refusal(error)
        } catch {
            throw .internalFailure("\(error)")
        }
    }

    /// `intent`: a user action in the main app. Its arguments are decoded and checked before
    /// anything runs, so a refused intent leaves no trace.
    public func perform(intent: String, arguments: any IntentArguments) throws(DeviceError) -> IntentOutcome {
        let work = try app.prepare(intent: intent, arguments: arguments)
        let from = trace.recorder.lastSequence
        let springBoard = springBoard
        let trace = trace
        let actor = "\(appName).app"
        let result = try run { () async throws -> any Encodable & Sendable in
            trace.record(.intent(name: intent), by: actor)
            return try await springBoard.runMainApp { try await work() }
        }
        let outcome = finish(from: from)
        return IntentOutcome(t: outcome.t, time: outcome.time, result: result, effects: outcome.effects)
    }

    /// `store.set` / `store.remove`: a write from outside the device (a test, a developer),
    /// traced under the actor `outside`. A nil value removes the key.
    public func storeSet(suite: String?, key: String, value: StoredValue?) throws(DeviceError) -> DeviceOutcome {
        let defaults = platform.userDefaults(suiteName: suite ?? app.appGroup)
        let springBoard = springBoard
        return try outcome {
            try await CallbackContext.$current.withValue(CallbackContext(unsandboxedActor: "outside")) {
                if let value {
                    try await defaults.set(value, forKey: key)
                } else {
                    try await defaults.removeObject(forKey: key)
                }
            }
            await springBoard.refreshForeground()
        }
    }

    /// `activity.start`: as the app calling `DeviceActivityCenter.startMonitoring`.
    public func activityStart(name: String, schedule: DeviceActivitySchedule, events: [String: DeviceActivityEvent])
        throws(DeviceError) -> DeviceOutcome
    {
        let center = platform.deviceActivityCenter
        let springBoard = springBoard
        return try outcome {
            try await springBoard.runMainApp {
                try await center.startMonitoring(name, during: schedule, events: events)
            }
        }
    }

    public func activityStop(names: [String]) throws(DeviceError) -> DeviceOutcome {
        let center = platform.deviceActivityCenter
        let springBoard = springBoard
        return try outcome { try await springBoard.runMainApp { try await center.stopMonitoring(names) } }
    }

    /// Applies per-device config overrides now (budgets take effect at the next charge).
    /// Errors name the field inside `config` (`config.quirks.x`).
    public func updateConfig(_ overrides: DeviceConfig.Overrides) throws(DeviceError) -> DeviceConfig {
        let updated: DeviceConfig
        do {
            updated = try config.applying(overrides)
        } catch {
            throw error.inside("config")
        }
        // The catalog and the app's thresholds are built into the device when it is made.
        for (field, changed) in [
            ("config.apps", updated.apps != config.apps),
            ("config.frictionThresholdsMinutes", updated.frictionThresholdsMinutes != config.frictionThresholdsMinutes),
            ("config.verificationNamesChallenge", updated.verificationNamesChallenge != config.verificationNamesChallenge),
            ("config.app", updated.app != config.app),
        ] where changed {
            throw .invalidArgument(field: field, reason: "fixed when the device is created: give it in device.create's config")
        }
        config = updated
        configRevision += 1
        springBoard.monitor.budgetBytes = config.memoryBudgets.monitor
        springBoard.shieldConfiguration.budgetBytes = config.memoryBudgets.shieldConfiguration
        springBoard.shieldAction.budgetBytes = config.memoryBudgets.shieldAction
        springBoard.monitor.baselineBytes = config.baselineBytes
        springBoard.shieldConfiguration.baselineBytes = config.baselineBytes
        springBoard.shieldAction.baselineBytes = config.baselineBytes
        let platform = platform
        let config = config
        try run { await Self.applyQuirks(config, platform: platform) }
        return config
    }

    /// The device's data, for a snapshot file (the daemon's compaction of a long journal).
    public func snapshot() throws(DeviceError) -> DeviceSnapshot {
        let platform = platform
        let springBoard = springBoard
        let app = app
        let parts = try run {
            (
                await platform.appGroups.suites, await platform.managedSettings.stores,
                await platform.deviceActivity.activities, await platform.deviceActivity.usageByDay,
                await springBoard.locked, await springBoard.foregroundApp, await platform.system.ssid,
                await platform.system.contacts, try await app.persistentData(), await platform.storeKit.transactions,
                await springBoard.call
            )
        }
        return DeviceSnapshot(
            name: name, app: appName, start: DeviceCalendar.isoString(calendar.start),
            timezone: calendar.timeZoneName, seed: seed, random: Int64(bitPattern: world.random.state),
            traceSequence: trace.recorder.lastSequence, clock: clockMode, config: config,
            nowMilliseconds: world.clock.now.milliseconds, locked: parts.4, foregroundApp: parts.5, wifi: parts.6,
            contacts: parts.7, suites: parts.0, managedSettings: parts.1, activities: parts.2, usageByDay: parts.3,
            appData: parts.8, storeTransactions: parts.9, call: parts.10)
    }

    // MARK: - Running the world

    /// Runs `body` in the world and maps failures: ``DeviceError`` as is, a platform refusal
    /// (MonitoringError, jetsam, ManagedSettings limits) to `.refused`, a world failure to
    /// `.internalFailure`.
    func run<T: Sendable>(
        lettingTimePass: Bool = false, _ body: @escaping @Sendable () async throws -> T
    ) throws(DeviceError) -> T {
        do {
            return try world.perform(lettingTimePass: lettingTimePass, body)
        } catch {
            throw Self.deviceError(error)
        }
    }

    /// How a failure inside the world reaches the user (see ``run(lettingTimePass:_:)``).
    static func deviceError(_ error: any Error) -> DeviceError {
        switch error {
        case let error as DeviceError: error
        case let error as MonitoringError:
            .refused(reason: error.rawValue, message: "MonitoringError.\(error.rawValue): \(error.message)")
        case let error as ManagedSettingsError: .refused(reason: error.reason, message: "ManagedSettings refused: \(error.reason)")
        case let error as Jetsam: .refused(reason: "jetsam", message: error.description)
        case let error as WorldError: refusal(error)
        default: .internalFailure("\(error)")
        }
    }

    /// A world stopped by the watchdog is a refusal (-32003 `watchdog`), as iOS's watchdog
    /// ends an app that never returns; any other world failure is a bug.
    private static func refusal(_ error: WorldError) -> DeviceError {
        if case .stepBudgetExceeded = error { return .refused(reason: "watchdog", message: error.description) }
        return .internalFailure("\(error)")
    }

    private func outcome(_ body: @escaping @Sendable () async throws -> Void) throws(DeviceError) -> DeviceOutcome {
        let from = trace.recorder.lastSequence
        try run(body)
        return finish(from: from)
    }

    private func finish(from sequence: Int) -> DeviceOutcome {
        let (t, time) = now
        return DeviceOutcome(t: t, time: time, effects: traceEntries(since: sequence, limit: nil))
    }

    // MARK: - What changed

    /// Where the device stands now: compare with a later mark to see what a request changed.
    public var mark: DeviceMark {
        DeviceMark(
            sequence: trace.recorder.lastSequence, milliseconds: world.clock.now.milliseconds,
            random: world.random.state, dataRevision: app.dataRevision.value, configRevision: configRevision)
    }

    /// What changed since `mark`: ``DeviceChange/durable`` when a durable effect was traced
    /// (``Effect/isDurable``), time moved, or the app's data or the config changed;
    /// ``DeviceChange/volatile`` when only volatile effects were traced or randomness drawn.
    public func changes(since mark: DeviceMark) -> DeviceChange {
        let now = self.mark
        guard now != mark else { return .none }
        if now.milliseconds != mark.milliseconds || now.dataRevision != mark.dataRevision
            || now.configRevision != mark.configRevision
            || trace.recorder.entries(after: mark.sequence).contains(where: \.payload.isDurable)
        {
            return .durable
        }
        return .volatile
    }
}

/// Where a device stands (``SimulatedDevice/mark``): its trace's last sequence number, its
/// virtual time, the state of its random generator and the revisions of its app data and config.
public struct DeviceMark: Sendable, Hashable {
    public let sequence: Int
    public let milliseconds: Int64
    public let random: UInt64
    public let dataRevision: Int
    public let configRevision: Int
}

/// What a request changed (``SimulatedDevice/changes(since:)``).
public enum DeviceChange: Sendable, Equatable {
    /// Nothing: the request only read.
    case none
    /// Only what a process's life shows (an extension launched, a value read): kept, but a
    /// power cut may lose the last of these without losing anything a user set.
    case volatile
    /// Something a user set, an app stored, or time: on disk before the reply.
    case durable
}
