import ExtensionSandbox

/// The DeviceActivity service of the device: a thin actor performing what
/// ``DeviceActivityDelivery`` decides (the rules are there) — tracing, handing callbacks to the
/// monitor process one at a time, and keeping one timer on the world's clock for the next
/// deadline.
@_spi(Host) public actor DeviceActivityAgent: WorldActor {
    /// Apple's limit on activities for an app and its extensions together.
    @_spi(Host) public static let maxActivities = 20

    @_spi(Host) public nonisolated let executor: WorldActorExecutor
    private let clock: VirtualClock
    private let calendar: DeviceCalendar
    private let catalog: CategoryCatalog
    private let trace: DeviceTrace
    private let tasks: WorldTasks
    private var delivery: DeviceActivityDelivery
    private var deliver: (@Sendable (MonitorCallback) async -> Void)?
    /// Callbacks released for delivery, waiting for the monitor process (``deliverOutbox()``).
    private var outbox: [MonitorCallback] = []
    private var delivering = false
    private var timer: VirtualClock.TimerID?
    private var timerDeadline: VirtualInstant?

    @_spi(Host) public init(
        executor: WorldActorExecutor, clock: VirtualClock, tasks: WorldTasks, calendar: DeviceCalendar,
        catalog: CategoryCatalog, trace: DeviceTrace
    ) {
        self.executor = executor
        self.tasks = tasks
        self.clock = clock
        self.calendar = calendar
        self.catalog = catalog
        self.trace = trace
        self.delivery = DeviceActivityDelivery(calendar: calendar, catalog: catalog, now: clock.now)
    }

    @_spi(Host) public var activities: [String: MonitoredActivity] { delivery.state.activities }
    /// Usage per local day, then per app, in milliseconds.
    @_spi(Host) public var usageByDay: [String: [String: Int64]] { delivery.state.usageByDay }

    @_spi(Host) public func setDelivery(_ deliver: @escaping @Sendable (MonitorCallback) async -> Void) {
        self.deliver = deliver
        delivery.connect()
    }

    @_spi(Host) public func configure(authorized: Bool, thresholdFiresOnStart: Bool, thresholdBatchInterval: VirtualDuration?) {
        delivery.authorized = authorized
        delivery.thresholdFiresOnStart = thresholdFiresOnStart
        delivery.thresholdBatchInterval = thresholdBatchInterval
    }

    /// Restores activities and usage saved by an earlier run (no callbacks are replayed).
    @_spi(Host) public func restore(activities: [String: MonitoredActivity], usageByDay: [String: [String: Int64]]) {
        perform(delivery.restore(activities: activities, usageByDay: usageByDay, at: clock.now))
    }

    // MARK: - DeviceActivityCenter

    @_spi(Host) public func startMonitoring(_ name: String, schedule: DeviceActivitySchedule, events: [String: DeviceActivityEvent])
        async throws(MonitoringError)
    {
        perform(try delivery.startMonitoring(name, schedule: schedule, events: events, at: clock.now))
    }

    @_spi(Host) public func stopMonitoring(_ names: [String]) async {
        perform(delivery.stopMonitoring(names, at: clock.now))
    }

    // MARK: - Device use

    /// The app whose usage counts now (frontmost, unshielded, unlocked), or nil.
    @_spi(Host) public func setForegroundUsage(app: String?) async {
        perform(delivery.setForegroundUsage(app: app, at: clock.now))
    }

    /// Device use: pending interval callbacks are delivered when the device is in use.
    @_spi(Host) public func setInUse(_ inUse: Bool) async {
        perform(delivery.setInUse(inUse, at: clock.now))
    }

    /// Called by the agent's timer.
    @_spi(Host) public func wake() async {
        timer = nil
        timerDeadline = nil
        perform(delivery.wake(at: clock.now))
    }

    /// The activities with the usage of the frontmost app counted up to now (`activity.list`).
    @_spi(Host) public func currentActivities() -> [String: MonitoredActivity] {
        delivery.accrue(to: clock.now)
        return delivery.state.activities
    }

    /// Today's usage per app, in seconds.
    @_spi(Host) public func usageToday() -> [String: Double] {
        delivery.accrue(to: clock.now)
        return (delivery.state.usageByDay[calendar.dayKey(clock.now)] ?? [:]).mapValues { Double($0) / 1000 }
    }

    /// Today's usage per category, in seconds (apps outside the catalog count as `other`),
    /// summed in whole milliseconds: a sum of doubles in dictionary order could differ in its
    /// last digit from one run to the next.
    @_spi(Host) public func usageTodayByCategory() -> [String: Double] {
        delivery.accrue(to: clock.now)
        let milliseconds = (delivery.state.usageByDay[calendar.dayKey(clock.now)] ?? [:]).reduce(into: [String: Int64]()) {
            totals, entry in
            totals[catalog.category(of: entry.key) ?? "other", default: 0] += entry.value
        }
        return milliseconds.mapValues { Double($0) / 1000 }
    }

    // MARK: - Performing

    private func perform(_ actions: [DeviceActivityDelivery.Action]) {
        for action in actions {
            switch action {
            case .trace(let effect):
                trace.record(effect)
            case .deliver(let callbacks):
                outbox.append(contentsOf: callbacks)
                guard !delivering else { continue }
                delivering = true
                tasks.spawn { [self] in await self.deliverOutbox() }
            case .wake(let deadline):
                reschedule(at: deadline)
            }
        }
    }

    /// The monitor process's queue: delivers released callbacks until none is left, in order,
    /// one at a time, in a world task of its own: on iOS the extension runs beside the main app
    /// and whatever caused the callback, so under an exploring strategy they interleave.
    private func deliverOutbox() async {
        while let deliver, !outbox.isEmpty {
            await deliver(outbox.removeFirst())
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

/// `DeviceActivityCenter` for simulated code.
public struct DeviceActivityCenter: Sendable {
    @_spi(Host) public let agent: DeviceActivityAgent

    /// `startMonitoring(_:during:events:)`; throws ``MonitoringError``.
    public func startMonitoring(
        _ activity: String, during schedule: DeviceActivitySchedule, events: [String: DeviceActivityEvent] = [:]
    ) async throws {
        try CallbackContext.current?.checkpoint()
        try await agent.startMonitoring(activity, schedule: schedule, events: events)
    }

    public func stopMonitoring(_ activities: [String]) async throws {
        try CallbackContext.current?.checkpoint()
        await agent.stopMonitoring(activities)
    }

    /// The names of monitored activities.
    public func activities() async throws -> [String] {
        try CallbackContext.current?.checkpoint()
        return await agent.activities.keys.sorted()
    }
}
