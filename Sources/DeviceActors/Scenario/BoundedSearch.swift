import Dispatch
import ExtensionSandbox
@_spi(Host) import SimulatediOS

/// Strategy `dfs`: every schedule with at most `bound` preemptions, depth first, as CHESS's
/// iterative context bounding does (Musuvathi and Qadeer, PLDI 2007): all schedules with no
/// preemption first, then those with one, up to the bound. A schedule is a path of decisions;
/// each run follows a forced prefix, then runs each task on (the non-preemptive schedule);
/// afterwards the deepest decision with a pick not yet tried, within the bound, becomes the next
/// prefix. A pick where no task could go on (the one that ran blocked or ended) costs nothing; a
/// switch away from a task that could go on costs one. When no pick is left the search is
/// exhaustive: no schedule within the bound fails.
///
/// Orders of independent operations are run once (sleep sets, Godefroid 1996): once a pick has
/// been explored, a sibling explored after it leaves it asleep for as long as the operations run
/// meanwhile are independent of the one it announced, and a schedule whose every ready task is
/// asleep is one already run, so it is cut there (`pruned`). Two operations are independent
/// when different processes perform them on different objects, or both read; a task that
/// announced nothing (just started, or resumed) depends on everything.
///
/// It runs on one thread (each schedule depends on the last), and is bounded by the plan's
/// `schedules`, `timeLimit` and the caller's ``ScenarioExplorer/Control``.
enum BoundedSearch {
    /// One decision on the current path: what could run (with what each announced), who could
    /// go on, what was picked, what was tried before it (in order), what was asleep, and the
    /// preemptions spent before it.
    private struct Frame {
        let candidates: [Decision.Candidate]
        let current: Int?
        var chosen: Int
        var tried: [Int]
        let asleep: Set<Int>
        let spentBefore: Int

        func cost(of task: Int) -> Int { current.map { $0 != task ? 1 : 0 } ?? 0 }
    }

    struct Result {
        var schedules = 0
        var pruned = 0
        var steps = 0
        var decisions = 0
        var failing: [(index: Int, outcome: ScenarioOutcome)] = []
        var failedTotal = 0
        var exhaustive = false
        var stoppedBy: String?
    }

    /// Bounds 0, 1, … `plan.preemptionBound` in turn, so that the fewest preemptions that break
    /// the scenario are found first.
    static func search(
        _ scenario: Scenario, plan: ExplorationPlan, control: ScenarioExplorer.Control, deadline: UInt64?
    ) -> Result {
        var result = Result()
        for bound in 0...plan.preemptionBound {
            searchWithin(bound, scenario, plan: plan, control: control, deadline: deadline, into: &result)
            if !result.exhaustive { return result }
        }
        return result
    }

    private static func searchWithin(
        _ bound: Int, _ scenario: Scenario, plan: ExplorationPlan, control: ScenarioExplorer.Control, deadline: UInt64?,
        into result: inout Result
    ) {
        let isStopped = control.isStopped
        result.exhaustive = false
        var stack: [Frame] = []
        while true {
            if let reason = control.stopReason() { return result.stoppedBy = reason }
            if let deadline, DispatchTime.now().uptimeNanoseconds >= deadline { return result.stoppedBy = "timeLimit" }
            guard result.schedules + result.pruned < plan.schedules else { return result.stoppedBy = "schedules" }
            let strategy = SleepingStrategy(prefix: stack.map { ($0.chosen, $0.tried.dropLast()) })
            let outcome = ScenarioRunner.run(scenario, strategy: strategy, interruption: isStopped)
            if outcome.interrupted { return result.stoppedBy = control.stopReason() ?? "cancelled" }
            result.steps += outcome.steps
            result.decisions += outcome.decisions
            let ran = outcome.strategy as? SleepingStrategy
            if ran?.pruned == true {
                result.pruned += 1
            } else {
                let index = result.schedules
                result.schedules += 1
                if outcome.failure != nil {
                    result.failedTotal += 1
                    if result.failing.count < 20 { result.failing.append((index, outcome)) }
                    control.progress(result.schedules, result.failedTotal)
                    if plan.stopAtFirst { return result.stoppedBy = "failure" }
                } else if result.schedules % control.progressEvery == 0 {
                    control.progress(result.schedules, result.failedTotal)
                }
            }
            extend(&stack, with: outcome.decisionLog, asleep: ran?.asleepAt ?? [])
            guard backtrack(&stack, bound: bound) else {
                result.exhaustive = true
                return
            }
        }
    }

    /// Adds the decisions the run made past the forced prefix.
    private static func extend(_ stack: inout [Frame], with log: [Decision], asleep: [Set<Int>]) {
        for decision in log.dropFirst(stack.count) {
            let spent = (stack.last.map { $0.spentBefore + $0.cost(of: $0.chosen) }) ?? 0
            stack.append(
                Frame(
                    candidates: decision.candidates, current: decision.current, chosen: decision.chosen,
                    tried: [decision.chosen], asleep: decision.index < asleep.count ? asleep[decision.index] : [],
                    spentBefore: spent))
        }
    }

    /// Moves to the next schedule: the deepest decision with an untried, awake pick within
    /// `bound` takes it, and everything after it is forgotten. False when none is left.
    private static func backtrack(_ stack: inout [Frame], bound: Int) -> Bool {
        while var frame = stack.popLast() {
            let next = frame.candidates.map(\.task).filter { !frame.tried.contains($0) && !frame.asleep.contains($0) }
                .sorted()
                .first { frame.spentBefore + frame.cost(of: $0) <= bound }
            if let next {
                frame.chosen = next
                frame.tried.append(next)
                stack.append(frame)
                return true
            }
        }
        return false
    }

    /// Whether two announced operations commute: different processes, and different objects or
    /// both reads. Unknown operations (nil) commute with nothing.
    static func independent(_ first: Decision.Candidate, _ second: Decision.Candidate) -> Bool {
        guard let a = first.operation, let b = second.operation, let p = first.process, let q = second.process, p != q
        else { return false }
        if a.object != b.object || a.item != b.item { return !["deliver", "return"].contains(a.verb) || a.verb == b.verb }
        return a.verb == "read" && b.verb == "read"
    }

    /// Follows a prefix of picks, then runs each awake task on; keeps the sleep set as it goes.
    /// At each prefix decision, the siblings explored before its pick fall asleep (those
    /// independent of it); a task wakes when a dependent operation runs. A run whose ready
    /// tasks are all asleep stops (``pruned``): it repeats one already made.
    struct SleepingStrategy: SchedulingStrategy {
        let prefix: [(task: Int, before: ArraySlice<Int>)]
        private var sleeping: [Int: Decision.Candidate] = [:]
        /// The tasks asleep at each decision.
        private(set) var asleepAt: [Set<Int>] = []
        private(set) var pruned = false

        init(prefix: [(task: Int, before: ArraySlice<Int>)]) {
            self.prefix = prefix
        }

        var name: String { "dfs" }
        var stopReason: String? { pruned ? "pruned: an order of independent operations already run" : nil }

        mutating func pickNext(_ ready: ReadyTasks) -> Int {
            let candidates = (0..<ready.count).map {
                Decision.Candidate(task: ready.task(at: $0), process: ready.process(at: $0), operation: ready.operation(at: $0))
            }
            asleepAt.append(Set(sleeping.keys))
            let pick: Int
            if ready.decision < prefix.count {
                guard let index = ready.index(of: prefix[ready.decision].task) else { return -1 }
                pick = index
                for task in prefix[ready.decision].before {
                    guard let sibling = candidates.first(where: { $0.task == task }) else { continue }
                    sleeping[task] = sibling
                }
            } else {
                let awake = ready.nonPreemptive
                if !sleeping.keys.contains(candidates[awake].task) {
                    pick = awake
                } else if let other = candidates.indices.filter({ !sleeping.keys.contains(candidates[$0].task) })
                    .min(by: { candidates[$0].task < candidates[$1].task })
                {
                    pick = other
                } else {
                    pruned = true
                    return -1
                }
            }
            let chosen = candidates[pick]
            sleeping[chosen.task] = nil
            sleeping = sleeping.filter { BoundedSearch.independent($0.value, chosen) }
            return pick
        }
    }
}
