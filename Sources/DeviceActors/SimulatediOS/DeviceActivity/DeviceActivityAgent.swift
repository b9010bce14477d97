import ExtensionSandbox

/// The DeviceActivity service of the device: registered activities, usage accounting per app
/// and category, and the callbacks to the monitor extension (docs/platform.md).
///
/// Rules it keeps:
/// - usage counts while an app is frontmost, not covered by a shield, and the device unlocked
///   (the device tells it which app that is, ``setForegroundUsage(app:)``);
/// - a threshold fires once per interval, counting usage since monitoring started (project
///   choice, docs/decisions.md; the `thresholdFiresOnStart` quirk counts the whole interval);
/// - interval and warning callbacks are delivered on device use: at once when the device is
///   unlocked, else at the next unlock; `intervalDidEnd` at once when a running interval is
///   stopped;
/// - `warningTime` fires warnings that long before start, end and each threshold (a threshold
///   warning is clamped to the interval start).
///
/// Time is the world's clock: the agent keeps one timer for its next deadline.
@_spi(Host) public actor DeviceActivityAgent: WorldActor {
    /// Apple's limit on activities for an app and its extensions together.
    @_spi(Host) public static let maxActivities = 20

    @_spi(Host) public nonisolated let executor: WorldActorExecutor
    private let clock: VirtualClock
    private let calendar: DeviceCalendar
    private let catalog: CategoryCatalog
    private let trace: DeviceTrace
    private var deliver: (@Sendable (MonitorCallback) async -> Void)?
    @_spi(Host) public private(set) var activities: [String: MonitoredActivity] = [:]
    private var foregroundApp: String?
    private var lastAccrual: VirtualInstant
    private var inUse = true
    private var pending: [MonitorCallback] = []
    /// Callbacks released for delivery, waiting for the monitor process (``deliverOutbox()``).
    private var outbox: [MonitorCallback] = []
    private var delivering = false
    private let tasks: WorldTasks
    private var timer: VirtualClock.TimerID?
    private var timerDeadline: VirtualInstant?
    /// Usage per local day, then per app, in milliseconds.
    @_spi(Host) public private(set) var usageByDay: [String: [String: Int64]] = [:]
    @_spi(Host) public var authorized = true
    @_spi(Host) public var thresholdFiresOnStart = false
    /// `batchedThresholds` quirk: threshold callbacks wait for the next multiple of this interval.
    private var thresholdBatchInterval: VirtualDuration?
    private var batched: [MonitorCallback] = []
    private var batchFlushAt: VirtualInstant?

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
        self.lastAccrual = clock.now
    }

    @_spi(Host) public func setDelivery(_ deliver: @escaping @Sendable (MonitorCallback) async -> Void) {
        self.deliver = deliver
    }

    @_spi(Host) public func configure(authorized: Bool, thresholdFiresOnStart: Bool, thresholdBatchInterval: VirtualDuration?) {
        self.authorized = authorized
        self.thresholdFiresOnStart = thresholdFiresOnStart
        self.thresholdBatchInterval = thresholdBatchInterval
    }

    /// Restores activities and usage saved by an earlier run (no callbacks are replayed).
    @_spi(Host) public func restore(activities: [String: MonitoredActivity], usageByDay: [String: [String: Int64]]) {
        self.activities = activities
        self.usageByDay = usageByDay
        lastAccrual = clock.now
        reschedule()
    }

    // MARK: - DeviceActivityCenter

    @_spi(Host) public func startMonitoring(_ name: String, schedule: DeviceActivitySchedule, events: [String: DeviceActivityEvent])
        async throws(MonitoringError)
    {
        guard authorized else { throw .unauthorized }
        if activities[name] == nil, activities.count >= Self.maxActivities { throw .excessiveActivities }
        accrue()
        let now = clock.now
        guard let interval = try schedule.interval(at: now, calendar: calendar) else { throw .invalidDateComponents }
        var activity = MonitoredActivity(
            name: name, schedule: schedule, events: events, interval: interval, phase: .waiting)
        if thresholdFiresOnStart, interval.contains(now) {
            activity.enterInterval()
            for event in events.keys {
                activity.progress[event] = usage(of: events[event]!, from: interval.start, to: now)
            }
        }
        activities[name] = activity
        trace.record(.activityStart(activity: name))
        processDue()
    }

    @_spi(Host) public func stopMonitoring(_ names: [String]) async {
        accrue()
        for name in names.sorted() {
            guard let activity = activities.removeValue(forKey: name) else { continue }
                trace.record(.activityStop(activity: name))
            if activity.phase == .active {
                pending.append(.intervalDidEnd(activity: name))
            }
        }
        flushPending(force: true)
        reschedule()
    }

    // MARK: - Device use

    /// The app whose usage counts now (frontmost, unshielded, unlocked), or nil.
    @_spi(Host) public func setForegroundUsage(app: String?) async {
        accrue()
        foregroundApp = app
        processDue()
    }

    /// Device use: pending interval callbacks are delivered when the device is in use.
    @_spi(Host) public func setInUse(_ inUse: Bool) async {
        accrue()
        self.inUse = inUse
        processDue()
    }

    /// Called by the agent's timer.
    @_spi(Host) public func wake() async {
        timer = nil
        timerDeadline = nil
        accrue()
        processDue()
    }

    /// The activities with the usage of the frontmost app counted up to now (`activity.list`).
    @_spi(Host) public func currentActivities() -> [String: MonitoredActivity] {
        accrue()
        return activities
    }

    /// Today's usage per app, in seconds.
    @_spi(Host) public func usageToday() -> [String: Double] {
        accrue()
        return (usageByDay[calendar.dayKey(clock.now)] ?? [:]).mapValues { Double($0) / 1000 }
    }

    /// Today's usage per category, in seconds (apps outside the catalog count as `other`),
    /// summed in whole milliseconds: a sum of doubles in dictionary order could differ in its
    /// last digit from one run to the next.
    @_spi(Host) public func usageTodayByCategory() -> [String: Double] {
        accrue()
        let milliseconds = (usageByDay[calendar.dayKey(clock.now)] ?? [:]).reduce(into: [String: Int64]()) { totals, entry in
            totals[catalog.category(of: entry.key) ?? "other", default: 0] += entry.value
        }
        return milliseconds.mapValues { Double($0) / 1000 }
    }

    // MARK: - Accounting

    private func accrue() {
        let now = clock.now
        defer { lastAccrual = now }
        guard let app = foregroundApp, now > lastAccrual else { return }
        let delta = (now - lastAccrual).milliseconds
        usageByDay[calendar.dayKey(lastAccrual), default: [:]][app, default: 0] += delta
        let category = catalog.category(of: app)
        for name in activities.keys where activities[name]!.phase == .active {
            for event in activities[name]!.events(counting: app, category: category) {
                activities[name]!.progress[event, default: 0] += delta
            }
        }
    }

    /// Usage of `event`'s apps and categories recorded between two instants of the same day
    /// (for the `thresholdFiresOnStart` quirk).
    private func usage(of event: DeviceActivityEvent, from start: VirtualInstant, to end: VirtualInstant) -> Int64 {
        guard calendar.dayKey(start) == calendar.dayKey(end) else { return 0 }
        return (usageByDay[calendar.dayKey(end)] ?? [:]).reduce(0) { total, entry in
            let counts =
                event.applications.contains(entry.key)
                || catalog.category(of: entry.key).map(event.categories.contains) == true
            return total + (counts ? entry.value : 0)
        }
    }

    // MARK: - Deadlines and callbacks

    /// Moves every activity forward to now, queueing the callbacks that became due, delivers
    /// what may be delivered, and sets the timer for the next deadline.
    private func processDue() {
        let now = clock.now
        releaseBatch(at: now)
        for name in activities.keys.sorted() {
            advance(name, to: now)
        }
        flushPending(force: false)
        reschedule()
    }

    private func advance(_ name: String, to now: VirtualInstant) {
        guard var activity = activities[name] else { return }
        defer { activities[name] = activity }
        let warning = activity.warningMilliseconds
        while let interval = activity.interval {
            switch activity.phase {
            case .finished:
                return
            case .waiting:
                if warning > 0, !activity.warned.contains("start"),
                    now >= interval.start - VirtualDuration(milliseconds: warning)
                {
                    activity.warned.insert("start")
                    pending.append(.intervalWillStartWarning(activity: name))
                }
                guard now >= interval.start else { return }
                activity.enterInterval()
                pending.append(.intervalDidStart(activity: name))
            case .active:
                for event in activity.events.keys.sorted() {
                    let threshold = activity.thresholdMilliseconds(event)
                    let progress = activity.progress[event] ?? 0
                    if warning > 0, !activity.warned.contains(event), progress >= max(0, threshold - warning) {
                        activity.warned.insert(event)
                        pending.append(.eventWillReachThresholdWarning(event: event, activity: name))
                    }
                    if !activity.reached.contains(event), progress >= threshold {
                        activity.reached.insert(event)
                        reachThreshold(.eventDidReachThreshold(event: event, activity: name), at: now)
                    }
                }
                if warning > 0, !activity.warned.contains("end"),
                    now >= interval.end - VirtualDuration(milliseconds: warning)
                {
                    activity.warned.insert("end")
                    pending.append(.intervalWillEndWarning(activity: name))
                }
                guard now >= interval.end else { return }
                pending.append(.intervalDidEnd(activity: name))
                activity.warned = []
                // The next interval must begin after this one ends; one that does not would be
                // entered again and again (never, since dates sit on whole milliseconds).
                if activity.schedule.repeats, let next = try? activity.schedule.interval(at: interval.end, calendar: calendar),
                    next.start >= interval.end
                {
                    activity.interval = next
                    activity.phase = .waiting
                } else {
                    activity.phase = .finished
                }
            }
        }
    }

    /// Queues a threshold callback, or holds it for the next batch under `batchedThresholds`.
    private func reachThreshold(_ callback: MonitorCallback, at now: VirtualInstant) {
        guard let interval = thresholdBatchInterval?.milliseconds, interval > 0 else {
            pending.append(callback)
            return
        }
        batched.append(callback)
        if batchFlushAt == nil {
            batchFlushAt = VirtualInstant(milliseconds: (now.milliseconds / interval + 1) * interval)
        }
    }

    /// Releases held threshold callbacks whose batch time has come.
    private func releaseBatch(at now: VirtualInstant) {
        guard let flushAt = batchFlushAt, now >= flushAt else { return }
        pending.append(contentsOf: batched)
        batched = []
        batchFlushAt = nil
    }

    /// Releases queued callbacks for delivery when the device is in use (or `force`d). They
    /// reach the monitor extension in order, one at a time, as its process handles them, in a
    /// world task of their own: on iOS the extension runs beside the main app and whatever
    /// caused the callback, so under an exploring strategy they interleave.
    private func flushPending(force: Bool) {
        guard inUse || force, deliver != nil, !pending.isEmpty else { return }
        outbox.append(contentsOf: pending)
        pending = []
        guard !delivering else { return }
        delivering = true
        tasks.spawn { [self] in await self.deliverOutbox() }
    }

    /// The monitor process's queue: delivers released callbacks until none is left.
    private func deliverOutbox() async {
        while let deliver, !outbox.isEmpty {
            await deliver(outbox.removeFirst())
        }
        delivering = false
    }

    private func nextDeadline() -> VirtualInstant? {
        let now = clock.now
        var deadlines: [VirtualInstant] = []
        let category = foregroundApp.flatMap(catalog.category(of:))
        for activity in activities.values {
            guard let interval = activity.interval else { continue }
            let warning = VirtualDuration(milliseconds: activity.warningMilliseconds)
            switch activity.phase {
            case .finished: continue
            case .waiting:
                if warning > .zero, !activity.warned.contains("start") { deadlines.append(interval.start - warning) }
                deadlines.append(interval.start)
            case .active:
                if warning > .zero, !activity.warned.contains("end") { deadlines.append(interval.end - warning) }
                deadlines.append(interval.end)
                guard let app = foregroundApp else { continue }
                for event in activity.events(counting: app, category: category) {
                    let left = activity.thresholdMilliseconds(event) - (activity.progress[event] ?? 0)
                    if !activity.reached.contains(event) {
                        deadlines.append(now + VirtualDuration(milliseconds: max(0, left)))
                    }
                    if warning > .zero, !activity.warned.contains(event) {
                        deadlines.append(now + VirtualDuration(milliseconds: max(0, left - warning.milliseconds)))
                    }
                }
            }
        }
        if let batchFlushAt { deadlines.append(batchFlushAt) }
        if foregroundApp != nil {
            deadlines.append(calendar.nextMidnight(after: now))
        }
        return deadlines.filter { $0 > now }.min()
    }

    private func reschedule() {
        let deadline = nextDeadline()
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
