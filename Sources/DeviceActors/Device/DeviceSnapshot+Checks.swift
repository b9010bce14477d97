import ExtensionSandbox
@_spi(Host) import SimulatediOS

/// What a snapshot file may hold: the bounds a device running from it keeps, so a damaged or
/// hand-edited file is refused at the restart, naming its field, instead of trapping the daemon
/// later on an overflow (usage added to a day's total near `Int64.max` did, found by the
/// fuzz-snapshot target: docs/fuzzing.md). A restart checks what the protocol checked when the
/// values were first set (`activity.start`, `event`, `clock.advance`), and what follows from
/// them: no usage, progress or span beyond the device's own time.
extension DeviceSnapshot {
    /// The latest virtual time a device reaches, 2^53 ms (285 000 years): where a `Double` of
    /// milliseconds, as every date is computed, stops being exact.
    public static let latestMilliseconds: Int64 = 1 << 53

    /// How far behind the device's time an activity's interval may be: one `clock.advance`.
    static let longestLag = Int64(SimulatedDevice.longestAdvanceSeconds * 1000)

    /// Where a device's own time lies, and where its intervals may (today's may begin before
    /// the device did, on a device made at noon).
    private static let deviceTimes: ClosedRange<Int64> = 0...latestMilliseconds
    private static let intervalTimes: ClosedRange<Int64> = -latestMilliseconds...latestMilliseconds
    /// Where something may be due: wherever timers are held (an app may set one for a thousand
    /// years; that is no damage).
    private static let dueTimes: ClosedRange<Int64> = -VirtualDuration.farthest.milliseconds...VirtualDuration.farthest.milliseconds

    /// Throws ``DeviceError/invalidArgument(field:reason:)`` naming the first value out of bounds.
    public func check() throws(DeviceError) {
        try Self.time(nowMilliseconds, in: Self.deviceTimes, "nowMilliseconds")
        try Self.count(traceSequence ?? 0, "traceSequence")
        try check(trace ?? [])
        for (day, apps) in usageByDay {
            for (app, milliseconds) in apps {
                try within(milliseconds, "usageByDay.\(day).\(app)", "more usage than the device's whole time")
            }
        }
        try check(usageToday ?? [])
        let apps = [("", activities, monitorQueue)]
            + (otherApps ?? []).enumerated().map { ("otherApps[\($0.offset)].", $0.element.activities, $0.element.monitorQueue) }
        for (prefix, activities, queue) in apps {
            try check(activities, prefix + "activities")
            if let due = queue?.batchFlushAt { try Self.time(due.milliseconds, in: Self.dueTimes, prefix + "monitorQueue.batchFlushAt") }
        }
        for (index, entry) in (pendingNotifications ?? []).enumerated() {
            try Self.time(entry.dueMilliseconds, in: Self.dueTimes, "pendingNotifications[\(index)].dueMilliseconds")
            try Self.count(entry.generation, "pendingNotifications[\(index)].generation")
        }
        if let lastInputSequence, !(0...(traceSequence ?? 0)).contains(lastInputSequence) {
            throw .invalidArgument(
                field: "lastInputSequence", reason: "\(lastInputSequence) is not a sequence number of the trace (0 to traceSequence)")
        }
        for (index, notification) in (notifications ?? []).enumerated() {
            try seconds(notification.t, "notifications[\(index)].t")
        }
        for (index, transaction) in (storeTransactions ?? []).enumerated() {
            try Self.count(transaction.id, "storeTransactions[\(index)].id")
            try seconds(transaction.purchaseT, "storeTransactions[\(index)].purchaseT")
        }
        if let call { try seconds(call.since, "call.since") }
        if let health { try check(health) }
        try check(works ?? [])
    }

    /// WorkManager's works: one per name, a backoff within its bounds, a count of runs, a due time.
    private func check(_ works: [PendingWork]) throws(DeviceError) {
        var names: Set<String> = []
        for (index, work) in works.enumerated() {
            guard names.insert(work.name).inserted else {
                throw .invalidArgument(field: "works[\(index)].name", reason: "a second work named \(work.name)")
            }
            guard OneTimeWorkRequest.backoffSeconds.contains(work.request.initialBackoffSeconds) else {
                throw .invalidArgument(
                    field: "works[\(index)].request.initialBackoffSeconds",
                    reason: "\(work.request.initialBackoffSeconds) is outside WorkManager's 10 s to 5 h")
            }
            try Self.count(work.attempts, "works[\(index)].attempts")
            if case .backoff(let until) = work.wait { try Self.time(until, in: Self.dueTimes, "works[\(index)].wait.backoff") }
        }
    }

    /// The trace kept: numbered in order, none after the device's time; the next number goes on
    /// from the last (a trace entry numbered near `Int.max` overflowed the next one's number).
    private func check(_ trace: [SnapshotTraceEntry]) throws(DeviceError) {
        var previous = 0
        for (index, kept) in trace.enumerated() {
            let entry = kept.entry
            guard entry.sequence > previous, entry.sequence <= Int(Self.latestMilliseconds) else {
                throw .invalidArgument(field: "trace[\(index)].seq", reason: "\(entry.sequence) does not follow \(previous)")
            }
            try within(entry.time.milliseconds, "trace[\(index)].t", "no time the device has reached")
            previous = entry.sequence
        }
    }

    /// Today's spans: in order, apart, within the device's time, no more than DeviceActivity keeps.
    private func check(_ spans: [UsageSpan]) throws(DeviceError) {
        guard spans.count <= DeviceActivityAgent.maxUsageSpans else {
            throw .invalidArgument(field: "usageToday", reason: "more than \(DeviceActivityAgent.maxUsageSpans) spans")
        }
        var earliest: Int64 = 0
        for (index, span) in spans.enumerated() {
            guard earliest <= span.start.milliseconds, span.start <= span.end, span.end.milliseconds <= nowMilliseconds else {
                throw .invalidArgument(
                    field: "usageToday[\(index)]", reason: "not a span between the one before it and the device's time")
            }
            earliest = span.end.milliseconds
        }
    }

    private func check(_ activities: [String: MonitoredActivity], _ field: String) throws(DeviceError) {
        guard activities.count <= DeviceActivityAgent.maxActivities else {
            throw .invalidArgument(field: field, reason: "more than \(DeviceActivityAgent.maxActivities) activities")
        }
        for (name, activity) in activities {
            for (event, milliseconds) in activity.progress {
                try within(milliseconds, "\(field).\(name).progress.\(event)", "more usage than the device's whole time")
            }
            guard let interval = activity.interval else { continue }
            try Self.time(interval.start.milliseconds, in: Self.intervalTimes, "\(field).\(name).interval.start")
            try Self.time(interval.end.milliseconds, in: Self.intervalTimes, "\(field).\(name).interval.end")
            let longest = Int64(DeviceActivitySchedule.maximumInterval * 1000)
            guard interval.start < interval.end, interval.end.milliseconds - interval.start.milliseconds <= longest else {
                throw .invalidArgument(field: "\(field).\(name).interval", reason: "not an interval of at most a week")
            }
            // DeviceActivity moves an activity on interval by interval, and a device's clock at most
            // a year at a time: an activity still waiting for or inside an interval a year behind
            // the device's time was never written by one (one 285 000 years behind took hours).
            guard activity.phase == .finished || interval.end.milliseconds >= nowMilliseconds - Self.longestLag else {
                throw .invalidArgument(
                    field: "\(field).\(name).interval", reason: "more than a year behind the device's time while \(activity.phase)")
            }
        }
    }

    private func check(_ health: HealthSnapshot) throws(DeviceError) {
        for (day, totals) in health.days {
            for (kind, sum) in totals {
                guard sum >= 0, sum <= Double(Self.latestMilliseconds) else {
                    throw .invalidArgument(field: "health.days.\(day).\(kind)", reason: "\(sum) is no total of samples")
                }
            }
        }
        try Self.count(health.failuresPending, "health.failuresPending")
        if let due = health.relaunchDueMilliseconds { try Self.time(due, in: Self.dueTimes, "health.relaunchDueMilliseconds") }
    }

    /// Usage or progress: at least 0, at most the device's time.
    private func within(_ milliseconds: Int64, _ field: String, _ reason: String) throws(DeviceError) {
        guard (0...nowMilliseconds).contains(milliseconds) else {
            throw .invalidArgument(field: field, reason: "\(milliseconds) is \(reason)")
        }
    }

    /// A virtual time, in milliseconds, within `range`.
    private static func time(_ milliseconds: Int64, in range: ClosedRange<Int64>, _ field: String) throws(DeviceError) {
        guard range.contains(milliseconds) else {
            throw .invalidArgument(field: field, reason: "\(milliseconds) is no virtual time of a device")
        }
    }

    /// A virtual time in seconds, as a few records keep it.
    private func seconds(_ seconds: Double, _ field: String) throws(DeviceError) {
        guard seconds >= 0, seconds <= Double(Self.latestMilliseconds) / 1000 else {
            throw .invalidArgument(field: field, reason: "\(seconds) is no virtual time of a device")
        }
    }

    /// A count or number that only grows one at a time.
    private static func count(_ value: Int, _ field: String) throws(DeviceError) {
        guard (0...Int(latestMilliseconds)).contains(value) else {
            throw .invalidArgument(field: field, reason: "\(value) is out of range")
        }
    }
}
