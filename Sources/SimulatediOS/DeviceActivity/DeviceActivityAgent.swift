import ExtensionSandbox

/// The DeviceActivity service of the device: a thin actor performing what
/// ``DeviceActivityDelivery`` decides (the rules are there) — tracing, handing callbacks to the
/// monitor process one at a time, and keeping one timer on the world's clock for the next
/// deadline.
///
/// Activity names are per app, as on iOS: each app has a machine of its own (its activities,
/// its limit of ``maxActivities``, its monitor's callbacks), so two apps can both monitor
/// `daily` without meeting. Every machine sees the same device use, so their usage records are
/// the same; the device's usage is read from the first app's. Machines are made for the apps
/// the device hosts when it is made; an app first seen later starts counting usage then.
@_spi(Host) public actor DeviceActivityAgent: WorldActor {
    /// Apple's limit on activities for an app and its extensions together.
    @_spi(Host) public static let maxActivities = 20
    /// Today's spans kept at most (about 4,000 app switches in a day): past it the oldest goes,
    /// and the `thresholdFiresOnStart` quirk no longer counts it. A bound in bytes (issue 17).
    @_spi(Host) public static let maxUsageSpans = 4096

    @_spi(Host) public nonisolated let executor: WorldActorExecutor
    private let clock: VirtualClock
    private let calendar: DeviceCalendar
    private let catalog: CategoryCatalog
    private let trace: DeviceTrace
    private let tasks: WorldTasks
    /// The first app hosted: the device's usage is its machine's.
    private let firstApp: String
    private var deliveries: [String: DeviceActivityDelivery] = [:]
    /// What every machine is told, kept for a machine made later.
    private var connected = false
    private var settings = (authorized: true, thresholdFiresOnStart: false, thresholdBatchInterval: VirtualDuration?.none)
    private var inUse = true
    private var foregroundApp: String?
    private var deliver: (@Sendable (_ app: String, MonitorCallback) async -> Void)?
    /// Callbacks released for delivery, with their app, waiting for the monitor processes
    /// (``deliverOutbox()``).
    private var outbox: [(app: String, callback: MonitorCallback)] = []
    private var delivering = false
    /// Each machine's next deadline; the one timer is set for the earliest.
    private var deadlines: [String: VirtualInstant] = [:]
    private var timer: VirtualClock.TimerID?
    private var timerDeadline: VirtualInstant?

    @_spi(Host) public init(
        executor: WorldActorExecutor, clock: VirtualClock, tasks: WorldTasks, calendar: DeviceCalendar,
        catalog: CategoryCatalog, trace: DeviceTrace, apps: [String]
    ) {
        self.executor = executor
        self.tasks = tasks
        self.clock = clock
        self.calendar = calendar
        self.catalog = catalog
        self.trace = trace
        self.firstApp = apps.first ?? ""
        for app in apps { deliveries[app] = DeviceActivityDelivery(calendar: calendar, catalog: catalog, now: clock.now) }
    }

    /// `app`'s activities.
    @_spi(Host) public func activities(of app: String) -> [String: MonitoredActivity] {
        deliveries[app]?.state.activities ?? [:]
    }

    /// The callbacks held for `app`'s monitor (``MonitorCallbackQueue``).
    @_spi(Host) public func queue(of app: String) -> MonitorCallbackQueue {
        deliveries[app]?.queue ?? MonitorCallbackQueue()
    }

    /// Counts every app's usage up to now. A snapshot calls it before reading usage and
    /// progress: they are otherwise counted only at the next event or deadline, and a device
    /// restored from the snapshot counts from its restore on, so it lost the usage in between.
    @_spi(Host) public func accrueUsage() {
        for app in deliveries.keys { deliveries[app]!.accrue(to: clock.now) }
    }

    /// Usage per local day, then per app, in milliseconds.
    @_spi(Host) public var usageByDay: [String: [String: Int64]] { deliveries[firstApp]?.state.usageByDay ?? [:] }

    /// Today's usage as spans (``UsageSpan``).
    @_spi(Host) public var usageSpansToday: [UsageSpan] { deliveries[firstApp]?.state.usageToday ?? [] }

    /// Callbacks go to `deliver`, with the app whose monitor receives them.
    @_spi(Host) public func setDelivery(_ deliver: @escaping @Sendable (_ app: String, MonitorCallback) async -> Void) {
        self.deliver = deliver
        connected = true
        for app in deliveries.keys { deliveries[app]!.connect() }
    }

    @_spi(Host) public func configure(authorized: Bool, thresholdFiresOnStart: Bool, thresholdBatchInterval: VirtualDuration?) {
        settings = (authorized, thresholdFiresOnStart, thresholdBatchInterval)
        for app in deliveries.keys { apply(settings, to: app) }
    }

    /// Restores `app`'s activities, the usage and the callbacks held for its monitor, saved by
    /// an earlier run.
    @_spi(Host) public func restore(
        activities: [String: MonitoredActivity], of app: String, usageByDay: [String: [String: Int64]], usageToday: [UsageSpan],
        queue: MonitorCallbackQueue
    ) {
        perform(
            withDelivery(of: app) {
                $0.restore(activities: activities, usageByDay: usageByDay, usageToday: usageToday, queue: queue, at: clock.now)
            }, of: app)
    }

    // MARK: - DeviceActivityCenter

    @_spi(Host) public func startMonitoring(
        _ name: String, of app: String, schedule: DeviceActivitySchedule, events: [String: DeviceActivityEvent]
    ) async throws(MonitoringError) {
        let now = clock.now
        let actions = try withDelivery(of: app) { delivery throws(MonitoringError) in
            try delivery.startMonitoring(name, schedule: schedule, events: events, at: now)
        }
        perform(actions, of: app, delivery: .ownTask)
    }

    @_spi(Host) public func stopMonitoring(_ names: [String], of app: String) async {
        perform(withDelivery(of: app) { $0.stopMonitoring(names, at: clock.now) }, of: app, delivery: .ownTask)
    }

    // MARK: - Device use

    /// The app whose usage counts now (frontmost, unshielded, unlocked), or nil.
    @_spi(Host) public func setForegroundUsage(app: String?) async {
        foregroundApp = app
        performOnEveryApp { $0.setForegroundUsage(app: app, at: clock.now) }
    }

    /// Device use: pending interval callbacks are delivered when the device is in use.
    @_spi(Host) public func setInUse(_ inUse: Bool) async {
        self.inUse = inUse
        performOnEveryApp { $0.setInUse(inUse, at: clock.now) }
    }

    /// Called by the agent's timer.
    @_spi(Host) public func wake() async {
        timer = nil
        timerDeadline = nil
        performOnEveryApp { $0.wake(at: clock.now) }
    }

    /// `app`'s activities with the usage of the frontmost app counted up to now (`activity.list`).
    @_spi(Host) public func currentActivities(of app: String) -> [String: MonitoredActivity] {
        withDelivery(of: app) { delivery in
            delivery.accrue(to: clock.now)
            return delivery.state.activities
        }
    }

    /// Today's usage per app, in seconds.
    @_spi(Host) public func usageToday() -> [String: Double] {
        todaysMilliseconds().mapValues { Double($0) / 1000 }
    }

    /// Today's usage per category, in seconds (apps outside the catalog count as `other`),
    /// summed in whole milliseconds: a sum of doubles in dictionary order could differ in its
    /// last digit from one run to the next.
    @_spi(Host) public func usageTodayByCategory() -> [String: Double] {
        let milliseconds = todaysMilliseconds().reduce(into: [String: Int64]()) { totals, entry in
            totals[catalog.category(of: entry.key) ?? "other", default: 0] += entry.value
        }
        return milliseconds.mapValues { Double($0) / 1000 }
    }

    private func todaysMilliseconds() -> [String: Int64] {
        withDelivery(of: firstApp) { delivery in
            delivery.accrue(to: clock.now)
            return delivery.state.usageByDay[calendar.dayKey(clock.now)] ?? [:]
        }
    }

    // MARK: - Performing

    /// Runs `input` on `app`'s machine, made first if the app has none yet (told what the
    /// others were told: connected, settings, device use, foreground app).
    private func withDelivery<T, E: Error>(of app: String, _ input: (inout DeviceActivityDelivery) throws(E) -> T) throws(E) -> T {
        if deliveries[app] == nil {
            var delivery = DeviceActivityDelivery(calendar: calendar, catalog: catalog, now: clock.now)
            if connected { delivery.connect() }
            _ = delivery.setInUse(inUse, at: clock.now)
            _ = delivery.setForegroundUsage(app: foregroundApp, at: clock.now)
            deliveries[app] = delivery
            apply(settings, to: app)
        }
        return try input(&deliveries[app]!)
    }

    /// Runs `input` on every app's machine, in the order of the apps' names, and performs what
    /// each decides: the device's use is every app's.
    private func performOnEveryApp(_ input: (inout DeviceActivityDelivery) -> [DeviceActivityDelivery.Action]) {
        for app in deliveries.keys.sorted() {
            perform(input(&deliveries[app]!), of: app)
        }
    }

    private func apply(
        _ settings: (authorized: Bool, thresholdFiresOnStart: Bool, thresholdBatchInterval: VirtualDuration?), to app: String
    ) {
        deliveries[app]!.authorized = settings.authorized
        deliveries[app]!.thresholdFiresOnStart = settings.thresholdFiresOnStart
        deliveries[app]!.thresholdBatchInterval = settings.thresholdBatchInterval
    }

    /// How released callbacks reach the monitor process.
    private enum Delivery {
        /// Behind those already released, one at a time (the device's clock and use).
        case outbox
        /// In a task of their own, at once, beside the caller's next lines and any callback
        /// running: `startMonitoring` / `stopMonitoring` called from inside a monitor callback do
        /// not wait for it to return (docs/platform.md, "The system reacts to writes when they land").
        case ownTask
    }

    private func perform(_ actions: [DeviceActivityDelivery.Action], of app: String, delivery: Delivery = .outbox) {
        for action in actions {
            switch action {
            case .trace(let effect):
                trace.record(effect)
            case .deliver(let callbacks) where delivery == .ownTask:
                guard let deliver else { continue }
                tasks.spawn {
                    for callback in callbacks { await deliver(app, callback) }
                }
            case .deliver(let callbacks):
                outbox.append(contentsOf: callbacks.map { (app, $0) })
                guard !delivering else { continue }
                delivering = true
                tasks.spawn { [self] in await self.deliverOutbox() }
            case .wake(let deadline):
                deadlines[app] = deadline
                reschedule(at: deadlines.values.min())
            }
        }
    }

    /// The monitor processes' queue: delivers released callbacks until none is left, in order,
    /// one at a time, in a world task of its own: on iOS the extension runs beside the main app
    /// and whatever caused the callback, so under an exploring strategy they interleave.
    private func deliverOutbox() async {
        while let deliver, !outbox.isEmpty {
            let next = outbox.removeFirst()
            await deliver(next.app, next.callback)
        }
        delivering = false
    }

    private func reschedule(at deadline: VirtualInstant?) {
        guard deadline != timerDeadline else { return }
        if let timer { clock.cancel(timer) }
        timer = nil
        timerDeadline = deadline
        guard let deadline else { return }
        timer = clock.schedule(at: deadline, label: "deviceActivity") { [self] in await self.wake() }
    }
}

/// `DeviceActivityCenter` for simulated code: its activity names are its app's own.
public struct DeviceActivityCenter: Sendable {
    @_spi(Host) public let agent: DeviceActivityAgent
    /// The app whose activities these are (the app and its extensions share them).
    @_spi(Host) public let app: String

    @_spi(Host) public init(agent: DeviceActivityAgent, app: String) {
        self.agent = agent
        self.app = app
    }

    /// `startMonitoring(_:during:events:)`; throws ``MonitoringError``.
    public func startMonitoring(
        _ activity: String, during schedule: DeviceActivitySchedule, events: [String: DeviceActivityEvent] = [:]
    ) async throws {
        try CallbackContext.platformCall(VisibleOperation("startMonitoring", "DeviceActivityCenter", activity))
        try await agent.startMonitoring(activity, of: app, schedule: schedule, events: events)
    }

    public func stopMonitoring(_ activities: [String]) async throws {
        try CallbackContext.platformCall(
            VisibleOperation("stopMonitoring", "DeviceActivityCenter", activities.joined(separator: ",")))
        await agent.stopMonitoring(activities, of: app)
    }

    /// The names of this app's monitored activities.
    public func activities() async throws -> [String] {
        try CallbackContext.platformCall(VisibleOperation("read", "DeviceActivityCenter", "activities"))
        return await agent.activities(of: app).keys.sorted()
    }
}
