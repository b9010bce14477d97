import Synchronization

/// Where one scenario step began and ended in the trace, and when: what a run's report needs to
/// cut the trace into frames (``ScenarioReport``). Taken by reading the recorder's last sequence
/// and the virtual clock between and inside steps, which creates no task and is no scheduling
/// point, so a run's trace and schedule are the same with or without anyone reading them.
public struct StepMark: Sendable, Equatable {
    /// `[3]` for `steps[3]`; `[9, 1, 0]` for `steps[9].parallel[1][0]`.
    public let position: [Int]
    /// The last sequence before the step began, and the last when it ended: the step's effects
    /// are those in `startSeq + 1 ... endSeq` (a branch's step shares them with the branches
    /// that ran beside it).
    public let startSeq: Int
    public let endSeq: Int
    /// Virtual time when it began and when it ended, in seconds.
    public let startT: Double
    public let endT: Double

    /// The step as the scenario's failures name it: `steps[3]`, `steps[9].parallel[1][0]`.
    public var path: String {
        guard let top = position.first else { return "steps" }
        var path = "steps[\(top)]"
        if position.count == 3 { path += ".parallel[\(position[1])][\(position[2])]" }
        return path
    }
}

/// The marks of one run, taken by the runner between steps and by each `parallel` branch in
/// the world as its steps begin and end: in the order the steps ended.
final class StepMarks: Sendable {
    private let marks = Mutex<[StepMark]>([])

    var all: [StepMark] { marks.withLock { $0 } }

    func add(_ mark: StepMark) {
        marks.withLock { $0.append(mark) }
    }
}
