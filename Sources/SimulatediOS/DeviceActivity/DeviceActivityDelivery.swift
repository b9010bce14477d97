import ExtensionSandbox

/// DeviceActivity's bookkeeping as a state machine (docs/platform.md, "DeviceActivity"): the
/// monitored activities, usage per app and day, and the monitor callbacks that fall due. Pure:
/// every input takes the time it happens at and returns the ``Action``s the agent performs, in
/// order — trace, hand callbacks to the monitor process, set the one timer.
///
/// Rules it keeps:
/// - usage counts while an app is frontmost, not covered by a shield, and the device unlocked
///   (``setForegroundUsage(app:at:)``);
/// - a threshold fires once per interval, counting usage since monitoring started (project
///   choice, docs/decisions.md; the `thresholdFiresOnStart` quirk counts the whole interval);
/// - interval and warning callbacks are delivered on device use: at once when the device is
///   unlocked, else at the next unlock; `intervalDidEnd` at once when a running interval is
///   stopped;
/// - `warningTime` fires warnings that long before start, end and each threshold (a threshold
///   warning is clamped to the interval start);
/// - `batchedThresholds` quirk: threshold callbacks wait for the next multiple of the interval.
struct DeviceActivityDelivery {
    enum Action: Equatable {
        /// Trace this effect under whoever called.
        case trace(Effect)
        /// Hand these callbacks, in order, to the monitor process.
        case deliver([MonitorCallback])
        /// Keep one timer, for this instant (nil: none), and call ``wake(at:)`` then.
        case wake(at: VirtualInstant?)
    }

    /// What the machine remembers between inputs.
    struct State: Equatable {
        var activities: [String: MonitoredActivity] = [:]
        /// Usage per local day, then per app, in milliseconds.
        var usageByDay: [String: [String: Int64]] = [:]
        /// Today's usage as spans, in order (one per stretch of one app).
        var usageToday: [UsageSpan] = []
        /// The app whose usage counts (frontmost, unshielded, unlocked).
        var foregroundApp: String?
        /// Usage is counted up to this instant.
        var lastAccrual: VirtualInstant
        var inUse = true
        /// Callbacks due, waiting for the device to be in use.
        var pending: [MonitorCallback] = []
        /// Whether the device connected the monitor process yet (callbacks wait until it has).
        var connected = false
        /// Threshold callbacks held by `batchedThresholds`, and when they are released.
        var batched: [MonitorCallback] = []
        var batchFlushAt: VirtualInstant?
    }

    private let calendar: DeviceCalendar
    private let catalog: CategoryCatalog
    /// Changed only by the inputs below.
    private(set) var state: State
    var authorized = true
    var thresholdFiresOnStart = false
    var thresholdBatchInterval: VirtualDuration?

    init(calendar: DeviceCalendar, catalog: CategoryCatalog, now: VirtualInstant) {
        self.calendar = calendar
        self.catalog = catalog
        self.state = State(lastAccrual: now)
    }

    /// The device connected the monitor process: callbacks can be handed to it from now on.
    mutating func connect() {
        state.connected = true
    }

    /// The callbacks held for the monitor, for a snapshot.
    var queue: MonitorCallbackQueue {
        MonitorCallbackQueue(pending: state.pending, batched: state.batched, batchFlushAt: state.batchFlushAt)
    }

    /// Activities, usage and held callbacks saved by an earlier run. The held callbacks go out
    /// when they would have: at the device's next use, at the batch's time.
    mutating func restore(
        activities: [String: MonitoredActivity], usageByDay: [String: [String: Int64]], usageToday: [UsageSpan],
        queue: MonitorCallbackQueue, at now: VirtualInstant
    ) -> [Action] {
        state.activities = activities
        state.usageByDay = usageByDay
        state.usageToday = usageToday
        state.pending = queue.pending
        state.batched = queue.batched
        state.batchFlushAt = queue.batchFlushAt
        state.lastAccrual = now
        return [.wake(at: nextDeadline(after: now))]
    }

    // MARK: - DeviceActivityCenter

    mutating func startMonitoring(
        _ name: String, schedule: DeviceActivitySchedule, events: [String: DeviceActivityEvent], at now: VirtualInstant
    ) throws(MonitoringError) -> [Action] {
        guard authorized else { throw .unauthorized }
        if state.activities[name] == nil, state.activities.count >= DeviceActivityAgent.maxActivities { throw .excessiveActivities }
        accrue(to: now)
        guard let interval = try schedule.interval(at: now, calendar: calendar) else { throw .invalidDateComponents }
        var activity = MonitoredActivity(
            name: name, schedule: schedule, events: events, interval: interval, phase: .waiting)
        if thresholdFiresOnStart, interval.contains(now) {
            activity.enterInterval()
            for event in events.keys {
                activity.progress[event] = usage(of: events[event]!, from: interval.start, to: now)
            }
        }
        state.activities[name] = activity
        return [.trace(.activityStart(activity: name))] + processDue(at: now)
    }

    mutating func stopMonitoring(_ names: [String], at now: VirtualInstant) -> [Action] {
        accrue(to: now)
        var actions: [Action] = []
        for name in names.sorted() {
            guard let activity = state.activities.removeValue(forKey: name) else { continue }
            actions.append(.trace(.activityStop(activity: name)))
            if activity.phase == .active {
                state.pending.append(.intervalDidEnd(activity: name))
            }
        }
        return actions + release(force: true) + [.wake(at: nextDeadline(after: now))]
    }

    // MARK: - Device use

    /// The app whose usage counts from `now` (frontmost, unshielded, unlocked), or nil.
    mutating func setForegroundUsage(app: String?, at now: VirtualInstant) -> [Action] {
        accrue(to: now)
        state.foregroundApp = app
        return processDue(at: now)
    }

    /// Device use: pending interval callbacks are delivered when the device is in use.
    mutating func setInUse(_ inUse: Bool, at now: VirtualInstant) -> [Action] {
        accrue(to: now)
        state.inUse = inUse
        return processDue(at: now)
    }

    /// The timer set by ``Action/wake(at:)`` fired.
    mutating func wake(at now: VirtualInstant) -> [Action] {
        accrue(to: now)
        return processDue(at: now)
    }

    // MARK: - Accounting

    /// Counts the frontmost app's usage up to `now` (per day, and toward every active event).
    /// Only the current day's usage is ever read, so an earlier day's is let go of when a new
    /// day's begins (a device simulated for 66 years kept a megabyte of them).
    mutating func accrue(to now: VirtualInstant) {
        defer { state.lastAccrual = now }
        guard let app = state.foregroundApp, now > state.lastAccrual else { return }
        let delta = (now - state.lastAccrual).milliseconds
        let day = calendar.dayKey(state.lastAccrual)
        if state.usageByDay[day] == nil {
            state.usageByDay.removeAll()
            state.usageToday.removeAll()
        }
        state.usageByDay[day, default: [:]][app, default: 0] += delta
        if let last = state.usageToday.last, last.app == app, last.end == state.lastAccrual {
            state.usageToday[state.usageToday.count - 1].end = now
        } else {
            if state.usageToday.count == DeviceActivityAgent.maxUsageSpans { state.usageToday.removeFirst() }
            state.usageToday.append(UsageSpan(app: app, start: state.lastAccrual, end: now))
        }
        let category = catalog.category(of: app)
        for name in state.activities.keys where state.activities[name]!.phase == .active {
            for event in state.activities[name]!.events(counting: app, category: category) {
                state.activities[name]!.progress[event, default: 0] += delta
            }
        }
    }

    /// Usage of `event`'s apps and categories between `start` and `end`, as far as today's spans
    /// go (an interval begun yesterday counts from midnight): the `thresholdFiresOnStart` quirk.
    private func usage(of event: DeviceActivityEvent, from start: VirtualInstant, to end: VirtualInstant) -> Int64 {
        state.usageToday.reduce(0) { total, span in
            let counts = event.counts(span.app, category: catalog.category(of: span.app))
            return total + (counts ? span.milliseconds(from: start, to: end) : 0)
        }
    }

    // MARK: - Deadlines and callbacks

    /// Moves every activity forward to `now`, queueing the callbacks that became due, releases
    /// what may be delivered, and names the next deadline.
    private mutating func processDue(at now: VirtualInstant) -> [Action] {
        releaseBatch(at: now)
        for name in state.activities.keys.sorted() {
            advance(name, to: now)
        }
        return release(force: false) + [.wake(at: nextDeadline(after: now))]
    }

    private mutating func advance(_ name: String, to now: VirtualInstant) {
        guard var activity = state.activities[name] else { return }
        defer { state.activities[name] = activity }
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
                    state.pending.append(.intervalWillStartWarning(activity: name))
                }
                guard now >= interval.start else { return }
                activity.enterInterval()
                state.pending.append(.intervalDidStart(activity: name))
            case .active:
                for event in activity.events.keys.sorted() {
                    let threshold = activity.thresholdMilliseconds(event)
                    let progress = activity.progress[event] ?? 0
                    if warning > 0, !activity.warned.contains(event), progress >= max(0, threshold - warning) {
                        activity.warned.insert(event)
                        state.pending.append(.eventWillReachThresholdWarning(event: event, activity: name))
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
                    state.pending.append(.intervalWillEndWarning(activity: name))
                }
                guard now >= interval.end else { return }
                state.pending.append(.intervalDidEnd(activity: name))
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
    private mutating func reachThreshold(_ callback: MonitorCallback, at now: VirtualInstant) {
        guard let interval = thresholdBatchInterval?.milliseconds, interval > 0 else {
            state.pending.append(callback)
            return
        }
        state.batched.append(callback)
        if state.batchFlushAt == nil {
            state.batchFlushAt = VirtualInstant(milliseconds: (now.milliseconds / interval + 1) * interval)
        }
    }

    /// Releases held threshold callbacks whose batch time has come.
    private mutating func releaseBatch(at now: VirtualInstant) {
        guard let flushAt = state.batchFlushAt, now >= flushAt else { return }
        state.pending.append(contentsOf: state.batched)
        state.batched = []
        state.batchFlushAt = nil
    }

    /// Releases queued callbacks for delivery when the device is in use (or `force`d).
    private mutating func release(force: Bool) -> [Action] {
        guard state.inUse || force, state.connected, !state.pending.isEmpty else { return [] }
        defer { state.pending = [] }
        return [.deliver(state.pending)]
    }

    /// When something is next due: an interval's start or end, a warning, a threshold at the
    /// frontmost app's pace, a batch, midnight (usage is kept per day). The earliest after `now`
    /// is kept as the candidates come (asked after every usage change: no list, no sorting).
    private func nextDeadline(after now: VirtualInstant) -> VirtualInstant? {
        var earliest: VirtualInstant?
        func consider(_ deadline: VirtualInstant) {
            if deadline > now, earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
        }
        let category = state.foregroundApp.flatMap(catalog.category(of:))
        for activity in state.activities.values {
            guard let interval = activity.interval else { continue }
            let warning = VirtualDuration(milliseconds: activity.warningMilliseconds)
            switch activity.phase {
            case .finished: continue
            case .waiting:
                if warning > .zero, !activity.warned.contains("start") { consider(interval.start - warning) }
                consider(interval.start)
            case .active:
                if warning > .zero, !activity.warned.contains("end") { consider(interval.end - warning) }
                consider(interval.end)
                guard let app = state.foregroundApp else { continue }
                for (event, counted) in activity.events where counted.counts(app, category: category) {
                    let left = activity.thresholdMilliseconds(event) - (activity.progress[event] ?? 0)
                    if !activity.reached.contains(event) {
                        consider(now + VirtualDuration(milliseconds: max(0, left)))
                    }
                    if warning > .zero, !activity.warned.contains(event) {
                        consider(now + VirtualDuration(milliseconds: max(0, left - warning.milliseconds)))
                    }
                }
            }
        }
        if let batchFlushAt = state.batchFlushAt { consider(batchFlushAt) }
        if state.foregroundApp != nil {
            consider(calendar.nextMidnight(after: now))
        }
        return earliest
    }
}
