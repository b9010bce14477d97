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
    /// The name the host knows it by; its apps see the one it was made with
    /// (`UIDevice.current.name`), which a device left by a replay keeps (``ScenarioBreakpoint``).
    public internal(set) var name: String
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
    /// Where the last input the device took (an event, `clock.advance`, an intent) began: the
    /// trace's sequence number before it. The screen shows the banners posted since
    /// (``screen()``): by trace order, not by time, so that one posted at the very instant the
    /// next input begins is that input's past. Set once the input is taken, so a refused one
    /// leaves it, as a journal's replay would; a restored device starts where its trace stopped.
    var lastInputSequence = 0

    /// The installed apps' names, in order.
    public var appNames: [String] { apps.map(\.name) }

    /// The device `description` describes, run as `options` say. `servers` hold the instances of
    /// the servers its registered apps bring: give several devices the same ``Servers`` to put
    /// them on one instance; by default each device has private ones.
    public init(
        _ description: DeviceDescription, options: DeviceRunOptions = DeviceRunOptions(), servers: Servers? = nil
    ) throws(DeviceError) {
        var description = description
        // A device of an app echoes its declared top-level settings, its defaults for those not given.
        if case .registered(let apps) = description.apps, let primary = apps.first {
            description.config = description.config.fillingTopLevelDefaults(of: primary)
        }
        self.name = description.name
        self.seed = description.seed
        self.clockMode = description.clock
        self.config = description.config
        self.calendar = description.calendar
        let wiring = try DeviceWiring(description, options: options, calendar: calendar, servers: servers)
        appName = wiring.apps[0].name
        world = wiring.world
        trace = wiring.trace
        apps = wiring.apps
        platform = wiring.apps[0].platform
        app = wiring.apps[0].app
        springBoard = wiring.springBoard
        switch options.launch {
        case .skipped: break
        case .run:
            try startNetwork()
            try launchApp()
        case .replaying(let answers):
            // A replayed launch gets the answers the first one got (``DeviceConnection``).
            connection?.replay(answers)
            try startNetwork()
            try launchApp()
            _ = connection?.takeExchanges()
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
        world.releaseHeldTasks()
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
        try goOnFromBreakpoint()
        try run(lettingTimePass: true, upTo: Self.longestWaitOnTime) { try await springBoard.handle(event) }
        lastInputSequence = from
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
        try goOnFromBreakpoint()
        let target = world.clock.now + .seconds(seconds)
        trace.record(.clockAdvance(seconds: seconds), by: "clock")
        try moveClock(to: target)
        lastInputSequence = from
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
        try goOnFromBreakpoint()
        let springBoard = springBoard
        let trace = trace
        let actor = target.mainAppActor
        let result = try run(lettingTimePass: true, upTo: Self.longestWaitOnTime) { () async throws -> any Encodable & Sendable in
            trace.record(.intent(name: intent), by: actor)
            return try await springBoard.runMainApp(of: target) { try await work() }
        }
        lastInputSequence = from
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
            updated = try config.applyingLive(overrides)
        } catch {
            throw error.inside("config")
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
