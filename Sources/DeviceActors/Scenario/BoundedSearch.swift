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
/// Orders of independent steps are run once (sleep sets, Godefroid 1996): once a pick has been
/// explored, a sibling explored after it leaves it asleep for as long as the steps run meanwhile
/// commute with the step it took, and a schedule whose every ready task is asleep is one already
/// run, so it is cut there (`pruned`). Whether two steps commute is read from what each one
/// touched when it ran (``Footprint``: the world actors it ran on, App Group keys, the clock's
/// timers, a sandbox's ledger), so a task that just started or resumed — whose next operation
/// no one announced — is judged by what it did, not assumed to touch everything.
/// With a preemption bound, the explored order of two commuting steps may be the one that
/// costs more preemptions, so a pruned schedule within the bound may stand for one explored
/// only beyond it (Coons, Musuvathi and McKinley, OOPSLA 2013); `sleepSets: false` (the plan's
/// ``ExplorationPlan/sleepSets``) runs every schedule within the bound instead.
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
        /// What the step of each tried pick touched.
        var footprints: [Int: Footprint] = [:]
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
        /// Failing schedules not counted because they are not `likely` (the plan's `plausibleOnly`).
        var implausible = 0
        var exhaustive = false
        var stoppedBy: String?
        /// Whether the last bound's search left out a pick because it would have passed the bound:
        /// false after an exhaustive search means no schedule needs more preemptions, so every
        /// schedule of the scenario ran.
        var cutByBound = false
    }

    /// Bounds 0, 1, … `plan.preemptionBound` in turn, so that the fewest preemptions that break
    /// the scenario are found first. Without a bound (nil), on until a bound's search leaves out no
    /// pick for passing it (iterative context bounding, Musuvathi and Qadeer, PLDI 2007): then every
    /// schedule of the scenario ran, and `exhaustive` holds for the whole space — no bound's
    /// caveat about sleep sets either, since nothing lies beyond the last bound. `observe` sees
    /// every schedule run to its end (not those pruned), as it ends.
    static func search(
        _ scenario: Scenario, plan: ExplorationPlan, control: ScenarioExplorer.Control, deadline: UInt64?,
        observe: (ScenarioOutcome) -> Void = { _ in }
    ) -> Result {
        var result = Result()
        var bound = 0
        while true {
            searchWithin(
                bound, scenario, plan: plan, control: control, deadline: deadline, observe: observe, into: &result)
            guard result.exhaustive else { return result }
            if let last = plan.preemptionBound, bound >= last { return result }
            if plan.preemptionBound == nil, !result.cutByBound { return result }
            bound += 1
        }
    }

    private static func searchWithin(
        _ bound: Int, _ scenario: Scenario, plan: ExplorationPlan, control: ScenarioExplorer.Control, deadline: UInt64?,
        observe: (ScenarioOutcome) -> Void, into result: inout Result
    ) {
        let isStopped = control.isStopped
        result.exhaustive = false
        result.cutByBound = false
        var stack: [Frame] = []
        while true {
            if let reason = control.stopReason() { return result.stoppedBy = reason }
            if let deadline, DispatchTime.now().uptimeNanoseconds >= deadline { return result.stoppedBy = "timeLimit" }
            guard result.schedules + result.pruned < plan.schedules else { return result.stoppedBy = "schedules" }
            let strategy = SleepingStrategy(
                prefix: stack.map { frame in
                    (frame.chosen, frame.tried.dropLast().compactMap { task in frame.footprints[task].map { (task, $0) } })
                }, sleeps: plan.sleepSets)
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
                observe(outcome)
                if outcome.failure != nil, plan.plausibleOnly, SchedulePlausibility(outcome).plausibility != .likely {
                    result.implausible += 1
                } else if outcome.failure != nil {
                    result.failedTotal += 1
                    if result.failing.count < 20 { result.failing.append((index, outcome)) }
                    control.progress(ExplorationProgress(done: result.schedules, failed: result.failedTotal, covered: nil))
                    if plan.stopAtFirst { return result.stoppedBy = "failure" }
                } else if result.schedules % control.progressEvery == 0 {
                    control.progress(ExplorationProgress(done: result.schedules, failed: result.failedTotal, covered: nil))
                }
            }
            extend(&stack, with: outcome.decisionLog, footprints: outcome.stepFootprints, asleep: ran?.asleepAt ?? [])
            guard backtrack(&stack, bound: bound, cut: &result.cutByBound) else {
                result.exhaustive = true
                return
            }
        }
    }

    /// Notes what the new pick of the forced prefix touched (its last decision: the earlier ones
    /// replayed picks already noted), and adds the decisions the run made past it.
    private static func extend(
        _ stack: inout [Frame], with log: [Decision], footprints: [Footprint], asleep: [Set<Int>]
    ) {
        if let last = stack.indices.last, last < footprints.count {
            stack[last].footprints[stack[last].chosen] = footprints[last]
        }
        for decision in log.dropFirst(stack.count) {
            let spent = (stack.last.map { $0.spentBefore + $0.cost(of: $0.chosen) }) ?? 0
            stack.append(
                Frame(
                    candidates: decision.candidates, current: decision.current, chosen: decision.chosen,
                    tried: [decision.chosen],
                    footprints: decision.index < footprints.count ? [decision.chosen: footprints[decision.index]] : [:],
                    asleep: decision.index < asleep.count ? asleep[decision.index] : [], spentBefore: spent))
        }
    }

    /// Moves to the next schedule: the deepest decision with an untried, awake pick within
    /// `bound` takes it, and everything after it is forgotten. False when none is left. `cut`
    /// becomes true when an untried, awake pick is left out for passing the bound.
    private static func backtrack(_ stack: inout [Frame], bound: Int, cut: inout Bool) -> Bool {
        while var frame = stack.popLast() {
            let untried = frame.candidates.map(\.task).filter { !frame.tried.contains($0) && !frame.asleep.contains($0) }
                .sorted()
            let next = untried.first { frame.spentBefore + frame.cost(of: $0) <= bound }
            if untried.contains(where: { frame.spentBefore + frame.cost(of: $0) > bound }) { cut = true }
            if let next {
                frame.chosen = next
                frame.tried.append(next)
                stack.append(frame)
                return true
            }
        }
        return false
    }

    /// Follows a prefix of picks, then runs each awake task on; keeps the sleep set as it goes.
    /// At each prefix decision, the siblings explored before its pick fall asleep with what their
    /// step touched; at each decision, a sleeper whose step conflicts with the step just run
    /// wakes. A run whose ready tasks are all asleep stops (``pruned``): it repeats one already
    /// made. Without `sleeps`, nothing ever sleeps.
    /// (Until issue 42 a sleeper that ran as the only ready task inside another task's step stayed
    /// asleep with its old footprint, so a later, different step of it could be cut.)
    struct SleepingStrategy: SchedulingStrategy {
        let prefix: [(task: Int, before: [(task: Int, footprint: Footprint)])]
        let sleeps: Bool
        private var sleeping: [Int: Footprint] = [:]
        /// The tasks asleep at each decision.
        private(set) var asleepAt: [Set<Int>] = []
        private(set) var pruned = false

        init(prefix: [(task: Int, before: [(task: Int, footprint: Footprint)])], sleeps: Bool = true) {
            self.prefix = prefix
            self.sleeps = sleeps
        }

        var name: String { "dfs" }
        var stopReason: String? { pruned ? "pruned: an order of independent operations already run" : nil }
        var usesFootprints: Bool { sleeps }

        mutating func pickNext(_ ready: ReadyTasks) -> Int {
            let step = ready.previousStep
            // A sleeper wakes when a step conflicting with its own ran, and when it ran itself
            // inside another task's step (left the only one ready): its next step is a new one.
            sleeping = sleeping.filter { !$0.value.conflicts(with: step) && !step.ran.contains($0.key) }
            asleepAt.append(Set(sleeping.keys))
            let pick: Int
            if ready.decision < prefix.count {
                guard let index = ready.index(of: prefix[ready.decision].task) else { return -1 }
                pick = index
                if sleeps {
                    for sibling in prefix[ready.decision].before where ready.index(of: sibling.task) != nil {
                        sleeping[sibling.task] = sibling.footprint
                    }
                }
            } else {
                let tasks = (0..<ready.count).map { ready.task(at: $0) }
                let awake = ready.nonPreemptive
                if sleeping[tasks[awake]] == nil {
                    pick = awake
                } else if let other = tasks.indices.filter({ sleeping[tasks[$0]] == nil }).min(by: { tasks[$0] < tasks[$1] }) {
                    pick = other
                } else {
                    pruned = true
                    return -1
                }
            }
            sleeping[ready.task(at: pick)] = nil
            return pick
        }
    }
}
