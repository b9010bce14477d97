import ExtensionSandbox

/// A `DeviceActivityMonitor` callback, as the platform delivers it to the monitor extension.
///
/// `Codable` for snapshots (``MonitorCallbackQueue``).
public enum MonitorCallback: Sendable, Equatable, Codable {
    case intervalDidStart(activity: String)
    case intervalDidEnd(activity: String)
    case eventDidReachThreshold(event: String, activity: String)
    case intervalWillStartWarning(activity: String)
    case intervalWillEndWarning(activity: String)
    case eventWillReachThresholdWarning(event: String, activity: String)

    /// The callback's Apple name, as traced (`extension.callback`).
    @_spi(Host) public var name: String {
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
@_spi(Host) public struct MonitoredActivity: Sendable, Equatable, Codable {
    @_spi(Host) public enum Phase: String, Sendable, Codable {
        /// Before the interval (`interval` is the next one).
        case waiting
        /// Inside the interval.
        case active
        /// A non-repeating schedule whose only interval is over.
        case finished
    }

    @_spi(Host) public let name: String
    @_spi(Host) public let schedule: DeviceActivitySchedule
    @_spi(Host) public let events: [String: DeviceActivityEvent]
    @_spi(Host) public var interval: ScheduleInterval?
    @_spi(Host) public var phase: Phase
    /// Usage counted toward each event in the current interval, in milliseconds.
    @_spi(Host) public var progress: [String: Int64] = [:]
    /// Events whose threshold fired in the current interval (once per interval).
    @_spi(Host) public var reached: Set<String> = []
    /// Warnings already given for the current interval: `start`, `end`, or an event name.
    @_spi(Host) public var warned: Set<String> = []

    @_spi(Host) public var warningMilliseconds: Int64 { Int64(schedule.warningTime?.durationSeconds ?? 0) * 1000 }

    @_spi(Host) public func thresholdMilliseconds(_ event: String) -> Int64 {
        Int64(events[event]?.threshold.durationSeconds ?? 0) * 1000
    }

    /// Events that count usage of `app` (in `category`), by name.
    @_spi(Host) public func events(counting app: String, category: String?) -> [String] {
        events.keys.sorted().filter { name in
            events[name]!.counts(app, category: category)
        }
    }

    private enum CodingKeys: String, CodingKey { case name, schedule, events, interval, phase, progress, reached, warned }

    /// Sets sorted: a `Set` encodes in the process's hash order, and snapshots must not depend on it.
    @_spi(Host) public func encode(to encoder: any Encoder) throws {
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
    @_spi(Host) public mutating func enterInterval() {
        phase = .active
        progress = [:]
        reached = []
        warned = []
    }
}
