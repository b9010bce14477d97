import ExtensionSandbox

/// A `DeviceActivityMonitor` callback, as the platform delivers it to the monitor extension.
public enum MonitorCallback: Sendable, Equatable {
    case intervalDidStart(activity: String)
    case intervalDidEnd(activity: String)
    case eventDidReachThreshold(event: String, activity: String)
    case intervalWillStartWarning(activity: String)
    case intervalWillEndWarning(activity: String)
    case eventWillReachThresholdWarning(event: String, activity: String)

    /// The callback's Apple name, as traced (`extension.callback`).
    var name: String {
        switch self {
        case .intervalDidStart: "intervalDidStart"
        case .intervalDidEnd: "intervalDidEnd"
        case .eventDidReachThreshold: "eventDidReachThreshold"
        case .intervalWillStartWarning: "intervalWillStartWarning"
        case .intervalWillEndWarning: "intervalWillEndWarning"
        case .eventWillReachThresholdWarning: "eventWillReachThresholdWarning"
        }
    }
}

/// One monitored activity and where it stands in its schedule.
struct MonitoredActivity: Sendable, Codable {
    enum Phase: String, Sendable, Codable {
        /// Before the interval (`interval` is the next one).
        case waiting
        /// Inside the interval.
        case active
        /// A non-repeating schedule whose only interval is over.
        case finished
    }

    let name: String
    let schedule: DeviceActivitySchedule
    let events: [String: DeviceActivityEvent]
    var interval: ScheduleInterval?
    var phase: Phase
    /// Usage counted toward each event in the current interval, in milliseconds.
    var progress: [String: Int64] = [:]
    /// Events whose threshold fired in the current interval (once per interval).
    var reached: Set<String> = []
    /// Warnings already given for the current interval: `start`, `end`, or an event name.
    var warned: Set<String> = []

    var warningMilliseconds: Int64 { Int64(schedule.warningTime?.durationSeconds ?? 0) * 1000 }

    func thresholdMilliseconds(_ event: String) -> Int64 {
        Int64(events[event]?.threshold.durationSeconds ?? 0) * 1000
    }

    /// Events that count usage of `app` (in `category`), by name.
    func events(counting app: String, category: String?) -> [String] {
        events.keys.sorted().filter { name in
            let event = events[name]!
            return event.applications.contains(app) || category.map(event.categories.contains) == true
        }
    }

    private enum CodingKeys: String, CodingKey { case name, schedule, events, interval, phase, progress, reached, warned }

    /// Sets sorted: a `Set` encodes in the process's hash order, and snapshots must not depend on it.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(schedule, forKey: .schedule)
        try c.encode(events, forKey: .events)
        try c.encodeIfPresent(interval, forKey: .interval)
        try c.encode(phase, forKey: .phase)
        try c.encode(progress, forKey: .progress)
        try c.encode(reached.sorted(), forKey: .reached)
        try c.encode(warned.sorted(), forKey: .warned)
    }

    /// Starts a new interval: progress, thresholds and warnings reset.
    mutating func enterInterval() {
        phase = .active
        progress = [:]
        reached = []
        warned = []
    }
}
