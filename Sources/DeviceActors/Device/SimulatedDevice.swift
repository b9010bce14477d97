import ExtensionSandbox
import Foundation
@_spi(Host) import SimulatediOS

/// One simulated iPhone running one app, or several (each with its main app and three sandboxed
/// extensions, the first the primary): a world (scheduler, virtual clock, seeded randomness) and
/// the platform actors they share.
///
/// Every method runs the world on the calling thread until it is idle and returns what the user
/// would see. Not thread-safe by design: the caller serialises access (the daemon gives each
/// device a serial queue). Same inputs + same seed + same build ⇒ the same trace, byte for byte,
/// which is how the daemon keeps devices: as their inputs, replayed at start (``mark`` tells it
/// what a request changed, and lets a replay check that it retraces the device's steps).
///
/// Three files: this one is the facade (one method per protocol input), ``DeviceWiring`` puts
/// the parts together, `SimulatedDevice+Persistence` saves and restores them and tells what a
/// request changed; `SimulatedDevice+Queries` answers the reads.
// unchecked: lane-confined: driven by one thread at a time (a device's lane), its world checks entry
public final class SimulatedDevice: @unchecked Sendable {
    public let name: String
    /// The primary app's name (the first installed).
    public let appName: String
    public let seed: UInt64
    public let clockMode: ClockMode
    public let calendar: DeviceCalendar
    public private(set) var config: DeviceConfig
    /// Bumped by every ``updateConfig(_:)``.
    private(set) var configRevision = 0

    let world: World
    let trace: DeviceTrace
    /// The primary app's handles and the app itself.
    let platform: Platform
    let app: any SimulatedApp
    /// Every installed app, in order (the primary first).
    let apps: [InstalledApp]
    let springBoard: SpringBoard

    /// The installed apps' names, in order.
    public var appNames: [String] { apps.map(\.name) }

    /// - Parameter traceSequence: the sequence number the trace continues after (a device
    ///   restored from a snapshot goes on numbering where it stopped).
    /// - Parameter strategy: how the world picks among ready jobs: FIFO for a device, an
    ///   exploring strategy for a scenario's schedule; `recordsSchedule` keeps every pick.
    public convenience init(
        name: String, app: AppRegistration, start: Date, timeZone: TimeZone, timeZoneName: String? = nil, seed: UInt64,
        clock: ClockMode, config: DeviceConfig, launch: Bool = true, traceSequence: Int = 0,
        strategy: any SchedulingStrategy = FIFOStrategy(), recordsSchedule: Bool = false, servers: Servers? = nil,
        replayingLaunch: [DeviceConnection.Exchange]? = nil
    ) throws(DeviceError) {
        try self.init(
            name: name, apps: [app], start: start, timeZone: timeZone, timeZoneName: timeZoneName, seed: seed, clock: clock,
            config: config, launch: launch, traceSequence: traceSequence, strategy: strategy, recordsSchedule: recordsSchedule,
            servers: servers, replayingLaunch: replayingLaunch)
    }

    /// A device with several apps installed (`device.create`'s `apps`), the first the primary:
    /// `config.app` holds the primary's settings; the others run with their defaults.
    public convenience init(
        name: String, apps: [AppRegistration], start: Date, timeZone: TimeZone, timeZoneName: String? = nil, seed: UInt64,
        clock: ClockMode, config: DeviceConfig, launch: Bool = true, traceSequence: Int = 0,
        strategy: any SchedulingStrategy = FIFOStrategy(), recordsSchedule: Bool = false, servers: Servers? = nil,
        replayingLaunch: [DeviceConnection.Exchange]? = nil
    ) throws(DeviceError) {
        for (index, app) in apps.enumerated() where !app.platforms.contains(config.platform) {
            let others = app.platforms.map(\.rawValue).sorted().joined(separator: ", ")
            throw .invalidArgument(
                field: index == 0 ? "config.platform" : "apps[\(index)]",
                reason: "\(app.name) has no \(config.platform.rawValue) client (only \(others))")
        }
        if let twice = apps.indices.first(where: { index in apps[..<index].contains { $0.name == apps[index].name } }) {
            throw .invalidArgument(field: "apps[\(twice)]", reason: "\(apps[twice].name) is installed once")
        }
        let transport = Self.connection(
            to: apps, of: name, at: start, timeZone: timeZoneName ?? timeZone.identifier, config: config, servers: servers ?? Servers())
        let settings = apps.indices.map { $0 == 0 ? config.settings(for: apps[0]) : AppSettings(values: [:], fromTopLevel: []) }
        try self.init(
            name: name, appNames: apps.map(\.name), start: start, timeZone: timeZone, timeZoneName: timeZoneName, seed: seed,
            clock: clock, config: config, launch: launch, traceSequence: traceSequence, strategy: strategy,
            recordsSchedule: recordsSchedule, transport: transport, replayingLaunch: replayingLaunch
        ) { index, platform, executors throws(DeviceError) in
            try apps[index].makeApp(platform: platform, executors: executors, settings: settings[index])
        }
    }

    /// A device whose app `makeApp` builds on the device's platform: the registration's path,
    /// and a test's own network transport. `appName` prefixes its processes' names in the trace
    /// (`<appName>.app`, `<appName>.monitor`…).
    public convenience init(
        name: String, appName: String, start: Date, timeZone: TimeZone, timeZoneName: String? = nil, seed: UInt64,
        clock: ClockMode, config: DeviceConfig, launch: Bool = true, traceSequence: Int = 0,
        strategy: any SchedulingStrategy = FIFOStrategy(), recordsSchedule: Bool = false,
        transport: (any NetworkTransport)? = nil, replayingLaunch: [DeviceConnection.Exchange]? = nil,
        makeApp: (Platform, ProcessExecutors) throws(DeviceError) -> any SimulatedApp
    ) throws(DeviceError) {
        try self.init(
            name: name, appNames: [appName], start: start, timeZone: timeZone, timeZoneName: timeZoneName, seed: seed,
            clock: clock, config: config, launch: launch, traceSequence: traceSequence, strategy: strategy,
            recordsSchedule: recordsSchedule, transport: transport, replayingLaunch: replayingLaunch
        ) { _, platform, executors throws(DeviceError) in try makeApp(platform, executors) }
    }

    /// The line to the instances of the servers `apps` bring (nil when none does): the one the
    /// device's config names (`backend`, default `default`), made at `start` if new.
    private static func connection(
        to apps: [AppRegistration], of device: String, at start: Date, timeZone: String, config: DeviceConfig, servers: Servers
    ) -> DeviceConnection? {
        var registrations: [ServerRegistration] = []
        for server in apps.compactMap(\.server) where !registrations.contains(where: { $0.name == server.name }) {
            registrations.append(server)
        }
        guard !registrations.isEmpty else { return nil }
        let now = Int64((start.timeIntervalSince1970 * 1000).rounded())
        return DeviceConnection(
            servers: registrations.map { servers.instance(of: $0, named: config.backend, now: now) },
            caller: ServerCaller(device: device, timezone: timeZone, platform: config.platform.rawValue))
    }

    private init(
        name: String, appNames: [String], start: Date, timeZone: TimeZone, timeZoneName: String?, seed: UInt64,
        clock: ClockMode, config: DeviceConfig, launch: Bool, traceSequence: Int, strategy: any SchedulingStrategy,
        recordsSchedule: Bool, transport: (any NetworkTransport)?, replayingLaunch: [DeviceConnection.Exchange]?,
        makeApp: (_ index: Int, Platform, ProcessExecutors) throws(DeviceError) -> any SimulatedApp
    ) throws(DeviceError) {
        self.name = name
        self.appName = appNames.first ?? ""
        self.seed = seed
        self.clockMode = clock
        self.config = config
        self.calendar = DeviceCalendar(start: start, timeZone: timeZone, name: timeZoneName)
        let wiring = try DeviceWiring(
            deviceName: name, appNames: appNames, calendar: calendar, seed: seed, config: config, traceSequence: traceSequence,
            strategy: strategy, recordsSchedule: recordsSchedule, transport: transport, makeApp: makeApp)
        world = wiring.world
        trace = wiring.trace
        apps = wiring.apps
        platform = wiring.apps[0].platform
        app = wiring.apps[0].app
        springBoard = wiring.springBoard
        if launch {
            // A replayed launch gets the answers the first one got (``DeviceConnection``).
            if let replayingLaunch { connection?.replay(replayingLaunch) }
            try startNetwork()
            try launchApp()
            if replayingLaunch != nil { _ = connection?.takeExchanges() }
        }
    }

    /// The device's line to its apps' servers, for apps that bring one: the daemon keeps what
    /// they answered in the journal (``DeviceConnection``).
    public var connection: DeviceConnection? { platform.network.transport as? DeviceConnection }

    /// Arms the network's ticks (pushes, the backend's clock) from the device's time now.
    func startNetwork() throws(DeviceError) {
        let network = platform.network
        // A device without servers runs nothing here (its schedules stay as they were).
        guard network.transport?.tickPeriodSeconds != nil else { return }
        try run { await network.startTicking() }
    }

    /// A device let go of frees its world: the tasks a stopped run left behind end
    /// (``World/reclaim()``), and its timers, its apps' manifest receivers and the works
    /// WorkManager keeps (which hold the actors and apps that hold the world) are dropped.
    deinit {
        world.reclaim()
        world.clock.cancelAll()
        for installed in apps { installed.platform.receivers.removeAll() }
        let work = platform.work
        _ = try? run { await work.forgetAll() }
    }

    /// Runs each main app's launch (cleanup, timers), as iOS does at app start, in install order.
    func launchApp() throws(DeviceError) {
        let springBoard = springBoard
        for installed in apps where installed.platform.mainApp.inMemory {
            try run { try await springBoard.runMainApp(of: installed) { try await installed.app.launch() } }
        }
    }

    // MARK: - Inputs

    public func apply(_ event: DeviceEvent) throws(DeviceError) -> DeviceOutcome {
        let springBoard = springBoard
        let from = trace.recorder.lastSequence
        try run(lettingTimePass: true, upTo: Self.longestWaitOnTime) { try await springBoard.handle(event) }
        return finish(from: from)
    }

    /// How long an input (an event, an intent) may wait on virtual time, a request's round trip
    /// to the app's server (``ServerRegistration/latencyMilliseconds``): the clock moves on while
    /// it waits, and every timer due on the way fires. An app that waits longer has stalled (a
    /// bug: -32603), as one that waits on what never comes.
    public static let longestWaitOnTime = VirtualDuration.seconds(60)

    /// The longest one `clock.advance` (or scenario `advance`, `waitUntil`) may move a device:
    /// a leap year, 31 622 400 s. A device's time so moves a year at a time at most, which
    /// bounds how far behind it an activity's interval can be (``DeviceSnapshot/check()``).
    public static let longestAdvanceSeconds: Double = 366 * 86_400

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

    /// `intent`: a user action in the main app of `app` (which must be named when several apps
    /// are installed). Its arguments are decoded and checked before anything runs, so a refused
    /// intent leaves no trace.
    public func perform(intent: String, arguments: any IntentArguments, app name: String? = nil) throws(DeviceError)
        -> IntentOutcome
    {
        let target = try installedApp(named: name)
        let work = try target.app.prepare(intent: intent, arguments: arguments)
        let from = trace.recorder.lastSequence
        let springBoard = springBoard
        let trace = trace
        let actor = target.mainAppActor
        let result = try run(lettingTimePass: true, upTo: Self.longestWaitOnTime) { () async throws -> any Encodable & Sendable in
            trace.record(.intent(name: intent), by: actor)
            return try await springBoard.runMainApp(of: target) { try await work() }
        }
        let outcome = finish(from: from)
        return IntentOutcome(t: outcome.t, time: outcome.time, result: result, effects: outcome.effects)
    }

    /// The installed app of that name; with none given, the only one (several installed: the
    /// caller must say which, `app`).
    func installedApp(named name: String?) throws(DeviceError) -> InstalledApp {
        guard let name else {
            guard apps.count == 1 else {
                throw .invalidArgument(
                    field: "app", reason: "several apps are installed; name one (\(appNames.joined(separator: ", ")))")
            }
            return apps[0]
        }
        guard let found = apps.first(where: { $0.name == name }) else {
            throw .invalidArgument(field: "app", reason: "\(name) is not installed (\(appNames.joined(separator: ", ")))")
        }
        return found
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

    /// Applies per-device config overrides now (budgets take effect at the next charge); ones
    /// that leave it as it is change nothing. Errors name the field inside `config` (`config.quirks.x`).
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
            ("config.variant", updated.variant != config.variant),
            ("config.platform", updated.platform != config.platform),
            (overrides.backend == nil && overrides.app?["backend"] != nil ? "config.app.backend" : "config.backend",
             updated.backend != config.backend),
        ] where changed {
            throw .invalidArgument(field: field, reason: "fixed when the device is created: give it in device.create's config")
        }
        // Overrides that leave the config as it is change nothing: not journalled, not recorded.
        guard updated != config else { return config }
        config = updated
        configRevision += 1
        for installed in apps {
            installed.monitor.budgetBytes = config.memoryBudgets.monitor
            installed.shieldConfiguration.budgetBytes = config.memoryBudgets.shieldConfiguration
            installed.shieldAction.budgetBytes = config.memoryBudgets.shieldAction
            installed.monitor.baselineBytes = config.baselineBytes
            installed.shieldConfiguration.baselineBytes = config.baselineBytes
            installed.shieldAction.baselineBytes = config.baselineBytes
        }
        let apps = apps
        let config = config
        let springBoard = springBoard
        try run {
            await DeviceWiring.applyQuirks(config, apps: apps)
            await springBoard.configure(healthDeliverySeconds: config.healthBackgroundDeliverySeconds)
        }
        return config
    }

    // MARK: - Running the world

    /// Runs `body` in the world and maps failures: ``DeviceError`` as is, a platform refusal
    /// (MonitoringError, jetsam, ManagedSettings limits) to `.refused`, a world failure to
    /// `.internalFailure`.
    func run<T: Sendable>(
        lettingTimePass: Bool = false, upTo limit: VirtualDuration? = nil, _ body: @escaping @Sendable () async throws -> T
    ) throws(DeviceError) -> T {
        do {
            return try world.perform(lettingTimePass: lettingTimePass, upTo: limit, body)
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
}
