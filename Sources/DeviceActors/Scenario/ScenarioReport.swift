import ScreenRendering
@_spi(Host) import SimulatediOS

/// What a run's HTML report shows beyond the answer's trace, story and causal chain
/// (`report: true` on `scenario.run` / `scenario.replay`, docs/protocol.md): the device, one
/// frame per step — the screen at its end, the App Group and shields before and after, what
/// changed — and the timeline. Folded from the trace (``ScreenFold``) at the sequences the runner
/// marked (``StepMark``): nothing is asked of the device, so a run with a report traces and
/// schedules exactly as one without.
public struct ScenarioReport: Sendable, Encodable {
    /// The stores at one point of the run.
    public struct Stores: Sendable, Encodable {
        /// suite → key → the value's text.
        public let appGroup: [String: [String: String]]
        /// store → its shield.
        public let shields: [String: ShieldSettings]

        init(_ fold: StoreFold) {
            appGroup = fold.appGroup
            shields = fold.shields
        }
    }

    /// What a step changed: per suite the keys, and the stores whose shield changed.
    public struct Changes: Sendable, Encodable {
        public let appGroup: [String: [String]]
        public let shields: [String]
    }

    /// One step: `index` in the report's order (each `parallel` step followed by its branches'
    /// steps), its `path`, `label` (the step as the scenario file says it) and the virtual time at
    /// its end; its effects are the trace's `startSeq + 1 ... endSeq`.
    public struct Frame: Sendable, Encodable {
        public let index: Int
        public let path: String
        public let label: String
        public let t: Double
        public let startSeq: Int
        public let endSeq: Int
        public let screen: PhoneScreen
        /// The stores after the step, and before it.
        public let appGroup: [String: [String: String]]
        public let shields: [String: ShieldSettings]
        public let before: Stores
        public let changed: Changes
        /// The step the run failed at (or, for a failure after the last step, that step).
        public let failing: Bool
    }

    public let device: ScreenDevice
    public let steps: [Frame]
    public let timeline: ReportTimeline

    /// The report of `outcome`; `labels` give each step's text by path (`steps[3]`).
    public init(of outcome: ScenarioOutcome, labels: [String: String]) {
        let trace = outcome.trace
        let marks = outcome.stepMarks.sorted { $0.position.lexicographicallyPrecedes($1.position) }
        let failingPath = outcome.failure.map { $0.step ?? marks.last { $0.position.count == 1 }?.path ?? "" }
        guard let device = outcome.device else {
            self.device = ScreenDevice(name: "", platform: .ios, apps: [], catalog: .builtIn, start: "", timeZone: "UTC")
            steps = []
            timeline = ReportTimeline(effects: [], mainAppActor: "", steps: [], switches: [], focus: nil)
            return
        }
        self.device = device.screenDevice
        let folds = Self.folds(of: trace, device: self.device, at: Set(marks.flatMap { [$0.startSeq, $0.endSeq] }))
        steps = marks.enumerated().map { index, mark in
            let (before, after) = (folds[mark.startSeq]!, folds[mark.endSeq]!)
            let changes = after.stores.changes(since: before.stores)
            return Frame(
                index: index, path: mark.path, label: labels[mark.path] ?? mark.path, t: mark.endT, startSeq: mark.startSeq,
                endSeq: mark.endSeq, screen: after.screen(inputBegan: mark.startSeq, at: mark.endT), appGroup: after.stores.appGroup,
                shields: after.stores.shields, before: Stores(before.stores),
                changed: Changes(appGroup: changes.appGroup, shields: changes.shields), failing: mark.path == failingPath)
        }
        let focus = steps.first(where: \.failing)?.endSeq
        timeline = ReportTimeline(
            effects: trace, mainAppActor: device.apps[0].mainAppActor, steps: marks,
            switches: ScheduleStory.switches(of: outcome), focus: focus)
    }

    /// The fold as it stood after each of `sequences`, in one pass over the trace.
    private static func folds(of trace: [TracedEffect], device: ScreenDevice, at sequences: Set<Int>) -> [Int: ScreenFold] {
        var fold = ScreenFold(device: device)
        var folds: [Int: ScreenFold] = [:]
        var pending = sequences.sorted()[...]
        for effect in trace {
            while let next = pending.first, next < effect.entry.sequence {
                folds[next] = fold
                pending.removeFirst()
            }
            fold.apply(effect.entry)
        }
        for sequence in pending { folds[sequence] = fold }
        return folds
    }
}
