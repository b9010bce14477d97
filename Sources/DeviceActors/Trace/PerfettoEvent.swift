@_spi(Host) import SimulatediOS

/// One event of the Chrome trace-event format (the JSON that Perfetto and `chrome://tracing`
/// load): a slice, an instant, a flow arrow's end or a track's name. Times are microseconds.
///
/// Built by ``PerfettoTrace``; docs/tracing.md describes what each trace effect becomes.
public struct PerfettoEvent: Sendable, Encodable {
    /// The event's `ph`.
    public enum Phase: String, Sendable, Encodable {
        /// A slice with a duration (`X`).
        case complete = "X"
        /// A point on a thread's track (`i`).
        case instant = "i"
        /// A track's name or sort order (`M`).
        case metadata = "M"
        /// Where a flow arrow leaves its cause's slice (`s`).
        case flowStart = "s"
        /// Where a flow arrow reaches its effect's slice (`f`).
        case flowEnd = "f"
    }

    /// The event's `args`: the trace effect it shows (as `trace.get` gives it), or a track's
    /// name or sort index.
    public enum Arguments: Sendable, Encodable {
        case effect(TracedEffect)
        case name(String)
        case sortIndex(Int)

        private enum Key: String, CodingKey {
            case name
            case sortIndex = "sort_index"
        }

        public func encode(to encoder: any Encoder) throws {
            switch self {
            case .effect(let effect):
                try effect.encode(to: encoder)
            case .name(let name):
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(name, forKey: .name)
            case .sortIndex(let index):
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(index, forKey: .sortIndex)
            }
        }
    }

    public let name: String
    public let phase: Phase
    /// Microseconds on the exported timeline (``PerfettoTimeline``); 0 for metadata.
    public let timestamp: Double
    /// Microseconds, for ``Phase/complete``.
    public let duration: Double?
    public let processID: Int
    public let threadID: Int
    public let category: String?
    /// The flow an arrow end belongs to (the `s` and `f` of one arrow share it).
    public let flowID: Int?
    public let arguments: Arguments?

    private enum Key: String, CodingKey {
        case name, ph, ts, dur, pid, tid, cat, s, id, bp, args
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(name, forKey: .name)
        try container.encode(phase, forKey: .ph)
        try container.encode(timestamp, forKey: .ts)
        try container.encodeIfPresent(duration, forKey: .dur)
        try container.encode(processID, forKey: .pid)
        try container.encode(threadID, forKey: .tid)
        try container.encodeIfPresent(category, forKey: .cat)
        try container.encodeIfPresent(flowID, forKey: .id)
        try container.encodeIfPresent(arguments, forKey: .args)
        switch phase {
        // A thread's instant, drawn on that thread's track.
        case .instant: try container.encode("t", forKey: .s)
        // An arrow ends on the slice enclosing its point, not on the next slice to begin.
        case .flowEnd: try container.encode("e", forKey: .bp)
        case .complete, .metadata, .flowStart: break
        }
    }

    /// A track's `process_name`, `process_sort_index` or `thread_name` (`M`).
    static func metadata(_ name: String, process: Int, thread: Int, _ arguments: Arguments) -> PerfettoEvent {
        PerfettoEvent(
            name: name, phase: .metadata, timestamp: 0, duration: nil, processID: process, threadID: thread,
            category: nil, flowID: nil, arguments: arguments)
    }

    /// A slice (`X`) or an instant (`i`, when `duration` is nil) showing one trace effect.
    static func effect(
        _ effect: TracedEffect, name: String, at timestamp: Double, duration: Double?, process: Int
    ) -> PerfettoEvent {
        PerfettoEvent(
            name: name, phase: duration == nil ? .instant : .complete, timestamp: timestamp, duration: duration,
            processID: process, threadID: process, category: effect.entry.payload.traceCategory, flowID: nil,
            arguments: .effect(effect))
    }

    /// A switch of the schedule (a preemption, or a pick off the non-preemptive schedule): an
    /// instant on the track of what ran next, category `schedule`, named as the story tells it.
    static func scheduleSwitch(_ label: String, at timestamp: Double, process: Int) -> PerfettoEvent {
        PerfettoEvent(
            name: label, phase: .instant, timestamp: timestamp, duration: nil, processID: process, threadID: process,
            category: "schedule", flowID: nil, arguments: .name(label))
    }

    /// One end of flow arrow `id` (`s` or `f`), named after the rule that drew it.
    static func flow(_ phase: Phase, id: Int, rule: String, at timestamp: Double, process: Int) -> PerfettoEvent {
        PerfettoEvent(
            name: rule, phase: phase, timestamp: timestamp, duration: nil, processID: process, threadID: process,
            category: "cause", flowID: id, arguments: nil)
    }
}
