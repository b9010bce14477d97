@_spi(Host) import SimulatediOS

/// A run's timeline as a report draws it: one lane per process — the scenario's steps first,
/// then the processes in the exported trace's order (``PerfettoProcesses``: the main app, the
/// system actors, the extensions; an extension's launches share its lane) — each step, callback
/// and intent a span (``TraceSpans``), and the schedule's switches and the faults, jetsams,
/// lost updates and errors marked. The x axis is the trace sequence.
///
/// Beyond ``limit`` events only a window of ``limit`` events is drawn, around the failure (the
/// end of the run when it passed); `omitted` says how many were left out.
public struct ReportTimeline: Sendable, Encodable {
    /// The most events drawn.
    public static let limit = 5_000

    public struct Span: Sendable, Encodable {
        /// `step`, `callback` or `intent`.
        public let kind: String
        public let label: String
        public let startSeq: Int
        public let endSeq: Int
        /// A step's path (`steps[3]`), which its frame has too.
        public let path: String?
    }

    public struct Mark: Sendable, Encodable {
        /// `switch`, `fault`, `jetsam`, `race`, `error` or `writeLost`.
        public let kind: String
        public let seq: Int
        public let label: String
    }

    public struct Lane: Sendable, Encodable {
        /// `steps`, or the process: `<app>.app`, `springBoard`, `<app>.monitor`.
        public let name: String
        public var spans: [Span] = []
        public var marks: [Mark] = []
    }

    /// The name of the lane of the scenario's steps.
    public static let stepsLane = "steps"

    public private(set) var lanes: [Lane]
    /// Every event of the run, and the sequences drawn: `firstSeq ... lastSeq`.
    public let events: Int
    public let firstSeq: Int
    public let lastSeq: Int
    public let omitted: Int

    /// - Parameter focus: the sequence the window is centred on when the run is cut.
    public init(
        effects: [TracedEffect], mainAppActor: String, steps: [StepMark], switches: [PerfettoTrace.ScheduleSwitch],
        focus: Int?
    ) {
        events = effects.count
        let window = Self.window(of: effects, around: focus)
        (firstSeq, lastSeq) = (window.first, window.last)
        omitted = effects.filter { $0.entry.sequence < window.first || $0.entry.sequence > window.last }.count
        let drawn = { (start: Int, end: Int) in end >= window.first && start <= window.last }

        let processes = PerfettoProcesses(effects: effects, mainAppActor: mainAppActor)
        var order: [String: Int] = [:]
        for (index, effect) in effects.enumerated() {
            let sortIndex = processes.processes[processes.pids[index] - 1].sortIndex
            order[effect.entry.actor] = min(order[effect.entry.actor] ?? .max, sortIndex)
        }
        let names = order.keys.sorted { (order[$0]!, $0) < (order[$1]!, $1) }
        var lanes = [Lane(name: Self.stepsLane)] + names.map { Lane(name: $0) }
        let laneIndex = Dictionary(uniqueKeysWithValues: lanes.enumerated().map { ($1.name, $0) })

        for step in steps where drawn(step.startSeq + 1, step.endSeq) {
            lanes[0].spans.append(
                Span(kind: "step", label: step.path, startSeq: step.startSeq + 1, endSeq: step.endSeq, path: step.path))
        }
        for change in switches where drawn(change.afterSequence, change.afterSequence) {
            lanes[0].marks.append(Mark(kind: "switch", seq: change.afterSequence, label: change.label))
        }
        let spans = TraceSpans(effects: effects, pids: processes.pids, mainAppActor: mainAppActor)
        for span in spans.spans {
            let begun = effects[span.start].entry
            let end = effects[span.last].entry.sequence
            guard drawn(begun.sequence, end) else { continue }
            let kind = if case .intent = begun.payload { "intent" } else { "callback" }
            lanes[laneIndex[begun.actor]!].spans.append(
                Span(kind: kind, label: begun.payload.traceLabel, startSeq: begun.sequence, endSeq: end, path: nil))
        }
        for effect in effects where drawn(effect.entry.sequence, effect.entry.sequence) {
            guard let kind = Self.markKind(effect.entry.payload) else { continue }
            lanes[laneIndex[effect.entry.actor]!].marks.append(
                Mark(kind: kind, seq: effect.entry.sequence, label: effect.entry.payload.traceLabel))
        }
        self.lanes = lanes
    }

    /// The effects marked on their process's lane: what went wrong (`fault`, `jetsam`, `race`,
    /// `error`, `writeLost`), and what the system did in an instant, so that SpringBoard's,
    /// DeviceActivity's and the clock's lanes show their work (`shield`: a shield drawn or
    /// pressed; `screen`: lock, unlock or the app in front changed; `delivery`: a DeviceActivity
    /// callback delivered; `notification`; `clock`: time advanced).
    private static func markKind(_ effect: Effect) -> String? {
        switch effect {
        case .fault: "fault"
        case .extensionJetsam: "jetsam"
        case .race: "race"
        case .appError: "error"
        case .storeWriteLost: "writeLost"
        case .shieldShown, .shieldAction: "shield"
        case .appState: "screen"
        case .monitorIntervalStart, .monitorIntervalEnd, .monitorThreshold, .monitorWarning: "delivery"
        case .notification, .push: "notification"
        case .clockAdvance: "clock"
        default: nil
        }
    }

    /// The sequences drawn: all of them, or ``limit`` events around `focus` (the last when nil).
    private static func window(of effects: [TracedEffect], around focus: Int?) -> (first: Int, last: Int) {
        guard let first = effects.first?.entry.sequence, let last = effects.last?.entry.sequence else { return (1, 0) }
        guard effects.count > limit else { return (first, last) }
        let center = effects.lastIndex { $0.entry.sequence <= (focus ?? last) } ?? effects.count - 1
        let start = max(0, min(center - limit / 2, effects.count - limit))
        return (effects[start].entry.sequence, effects[start + limit - 1].entry.sequence)
    }
}
