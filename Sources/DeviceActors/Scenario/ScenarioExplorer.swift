import Dispatch
import ExtensionSandbox
import Foundation
@_spi(Host) import SimulatediOS

/// Runs many schedules of a scenario, each on a fresh world, on `jobs` threads at once, and
/// reports the failures, the first shrunk to fewer preemptions that still fail the same way.
///
/// The outcome does not depend on `jobs` or timing: schedules are claimed in index order, so
/// when one fails every lower index has already been claimed and runs to the end; the lowest
/// failing index is the same in every run. (A time limit or a cancellation does depend on time.)
public enum ScenarioExplorer {
    /// How the caller watches, stops and spreads an exploration: `progress` is called once as it
    /// starts (nothing done yet), then from worker threads with the schedules done, failed and
    /// covered so far, at most every `progressEvery` schedules and on each failure; `stopReason` is asked before each schedule and step (and
    /// each instant timers fire at), and once it names a reason the exploration stops, reporting
    /// it as `stoppedBy`; `spread` runs the workers: its body on the calling thread and on up to
    /// `count - 1` others, returning when every started run has returned (by default,
    /// `DispatchQueue.concurrentPerform`; the daemon lends threads of its own).
    public struct Control: Sendable {
        public let progressEvery: Int
        public let progress: @Sendable (ExplorationProgress) -> Void
        public let stopReason: @Sendable () -> String?
        public let spread: @Sendable (_ count: Int, _ body: @escaping @Sendable () -> Void) -> Void

        public init(
            progressEvery: Int = 100, progress: @escaping @Sendable (ExplorationProgress) -> Void = { _ in },
            stopReason: @escaping @Sendable () -> String? = { nil },
            spread: @escaping @Sendable (Int, @escaping @Sendable () -> Void) -> Void = { count, body in
                DispatchQueue.concurrentPerform(iterations: count) { _ in body() }
            }
        ) {
            self.progressEvery = max(1, progressEvery)
            self.progress = progress
            self.stopReason = stopReason
            self.spread = spread
        }

        var isStopped: @Sendable () -> Bool {
            let stopReason = stopReason
            return { stopReason() != nil }
        }
    }

    /// Wall time (`DispatchTime`) is read here only, outside every world: to stop starting
    /// schedules after `timeLimit` and to report the speed. No world ever sees it.
    public static func explore(
        _ scenario: Scenario, plan: ExplorationPlan, build: BuildInfo, control: Control = Control()
    ) -> ExplorationReport {
        let started = DispatchTime.now().uptimeNanoseconds
        control.progress(ExplorationProgress(done: 0, failed: 0, covered: plan.strategy == .dfs ? nil : 0))
        let isStopped = control.isStopped
        let deadline = plan.timeLimit.map { started + UInt64(max(0, $0) * 1e9) }
        // The scenario's own schedule first: a scenario whose run fails fails at once.
        let baseline = ScenarioRunner.run(scenario, strategy: FIFOStrategy(), interruption: isStopped)
        var failing: [(index: Int, outcome: ScenarioOutcome)] = []
        var counts = (schedules: 0, failed: 0, done: 0, steps: 0, decisions: 0)
        var stoppedBy: String?
        var jobs = 1
        var exhaustive: Bool?
        var pruned: Int?
        var covered: Int? = plan.strategy == .dfs ? nil : 0
        var lessPlausibleSeen: Int?
        var implausible: Int?
        var coverage: ExplorationCoverage?
        // Failures shrunk, from the first: each shrink replays the scenario hundreds of times.
        var shrunkCount = 1
        // With `plausibleOnly`, the scenario's own schedule failing in an unlikely way is set aside too.
        let baselineSetAside =
            plan.plausibleOnly && baseline.failure != nil && SchedulePlausibility(baseline).plausibility != .likely ? 1 : 0
        if baseline.failure != nil, !baseline.interrupted, baselineSetAside == 0 {
            failing = [(-1, baseline)]
            counts = (1, 1, 1, baseline.steps, baseline.decisions)
            stoppedBy = "failure"
            control.progress(ExplorationProgress(done: 1, failed: 1, covered: covered))
        } else if plan.strategy == .dfs {
            let found = BoundedSearch.search(scenario, plan: plan, control: control, deadline: deadline)
            failing = found.failing
            counts = (found.schedules, found.failedTotal, found.schedules, found.steps, found.decisions)
            stoppedBy = found.stoppedBy
            exhaustive = found.exhaustive
            pruned = found.pruned
            implausible = plan.plausibleOnly ? found.implausible + baselineSetAside : nil
        } else {
            // Counted, not listed: ten million schedules made an array of 80 MB, seconds in the making.
            let step = max(1, plan.shard.count)
            let count = plan.schedules > plan.shard.index ? (plan.schedules - plan.shard.index + step - 1) / step : 0
            let state = ExplorationLedger(
                first: plan.shard.index, step: step, count: count, stopAtFirst: plan.stopAtFirst,
                window: plan.plausibilityWindow, plausibleOnly: plan.plausibleOnly)
            jobs = max(1, min(plan.jobs, count))
            let interleavings = InterleavingCoverage(first: plan.shard.index, step: step)
            if let reason = control.stopReason() { state.stop(reason) }
            let run = { @Sendable (index: Int) in
                let seed = scheduleSeed(index, plan: plan, expectedDecisions: baseline.decisions)
                return ScenarioRunner.run(
                    scenario, seed: seed, quirks: plan.swarm ? seed.swarmQuirks : [:],
                    faults: plan.swarm ? seed.swarmFaults(scenario.faults) : scenario.faults, interruption: isStopped)
            }
            control.spread(jobs) {
                while let index = state.claim() {
                    if let reason = control.stopReason() { return state.stop(reason) }
                    if let deadline, DispatchTime.now().uptimeNanoseconds >= deadline { return state.stop("timeLimit") }
                    let outcome = run(index)
                    if outcome.interrupted { return state.stop(control.stopReason() ?? "cancelled") }
                    interleavings.record(index: index, hash: ReadsFrom(outcome).classHash)
                    let plausibility = outcome.failure.map { _ in SchedulePlausibility(outcome) }
                    let progress = state.record(index: index, outcome: outcome, plausibility: plausibility)
                    if progress.done % control.progressEvery == 0 || outcome.failure != nil { control.progress(progress) }
                }
            }
            let kept = state.failures
            // The most plausible failure near the first may have been let go of: it runs again.
            failing = kept.failing.map { (index: $0.index, outcome: $0.outcome ?? run($0.index)) }
            lessPlausibleSeen = kept.lessPlausible
            // Stopped at a failure: the most plausible and the first found, each told at its smallest.
            if kept.lessPlausible != nil { shrunkCount = failing.count }
            let (schedules, failed) = state.counts
            counts = (schedules, failed, state.done, state.steps, state.decisions)
            stoppedBy = state.stoppedBy
            covered = state.coveredCount
            // After a stop at a failure, the schedules counted; else those that all ran from the first.
            coverage = interleavings.report(schedules: stoppedBy == "failure" ? schedules : state.coveredCount)
            implausible = plan.plausibleOnly ? state.implausible + baselineSetAside : nil
        }
        if lessPlausibleSeen == nil { (failing, lessPlausibleSeen) = mostPlausibleFirst(failing) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        // The sequential schedule each explanation compares with depends only on the quirks: run once per quirk set.
        var sequentialRuns: [[String: Bool]: ScenarioOutcome] = [:]
        func explanation(of shrunk: ScenarioOutcome) -> FailureExplanation? {
            guard shrunk.failure != nil else { return nil }
            let sequential =
                sequentialRuns[shrunk.quirks]
                ?? ScenarioRunner.run(scenario, replaying: .deviations([]), quirks: shrunk.quirks, interruption: isStopped)
            sequentialRuns[shrunk.quirks] = sequential
            return FailureExplanation(shrunk, sequential: sequential)
        }
        let failures = failing.enumerated().map { position, failing in
            let (index, outcome) = failing
            let seed =
                index < 0
                ? ScheduleSeed(strategy: .fifo, seed: 0, depth: nil, expectedDecisions: nil)
                : plan.strategy == .dfs
                    ? ScheduleSeed(strategy: .dfs, seed: UInt64(index), depth: nil, expectedDecisions: nil)
                    : scheduleSeed(index, plan: plan, expectedDecisions: baseline.decisions)
            let reason = outcome.failure!
            var shrunk = outcome
            if position < shrunkCount {
                let smallest = ScheduleShrinker(scenario: scenario, quirks: outcome.quirks, interruption: isStopped)
                    .shrink(
                        outcome.deviations, faults: outcome.faults, failing: reason, preemptions: outcome.preemptions,
                        plausibility: SchedulePlausibility(outcome))
                let replayed = ScenarioRunner.run(
                    scenario, replaying: .deviations(smallest.deviations, faults: smallest.faults), quirks: outcome.quirks,
                    interruption: isStopped)
                if replayed.failure?.isSameFailure(as: reason) == true { shrunk = replayed }
            }
            var explained = explanation(of: shrunk)
            if position < shrunkCount {
                explained?.needs = DeviationNeed.needs(of: shrunk, scenario: scenario, interruption: isStopped) ?? []
            }
            var failure = ExplorationFailure(
                reason: shrunk.failure ?? reason, index: index, seed: seed, shrunk: shrunk, original: outcome,
                explanation: explained, scenarioHash: plan.scenarioHash, build: build)
            if position == 0 { failure.lessPlausibleSeen = lessPlausibleSeen }
            return failure
        }
        var report = ExplorationReport(
            schedules: counts.schedules, failed: counts.failed,
            firstFailingSeed: failures.min { $0.scheduleIndex < $1.scheduleIndex }.map(\.seed),
            failures: failures, schedulesPerSecond: Double(counts.done) / max(seconds, 1e-9),
            stepsPerSecond: Double(counts.steps) / max(seconds, 1e-9),
            decisionsPerSecond: Double(counts.decisions) / max(seconds, 1e-9), steps: counts.steps, decisions: counts.decisions,
            seconds: seconds, stoppedBy: stoppedBy, jobs: jobs, expectedDecisions: baseline.decisions)
        report.covered = covered
        report.coverage = coverage
        report.implausible = implausible
        if plan.strategy == .dfs {
            report.exhaustive = exhaustive ?? false
            report.bound = plan.preemptionBound
            report.pruned = pruned ?? 0
        }
        if scenario.expectFailure { report.expectFailure = true }
        return report
    }

    /// The failures, the most plausible first (``SchedulePlausibility``; in index order among
    /// equals), and how many of the first's failure were less plausible than it.
    static func mostPlausibleFirst(
        _ failing: [(index: Int, outcome: ScenarioOutcome)]
    ) -> ([(index: Int, outcome: ScenarioOutcome)], Int?) {
        guard !failing.isEmpty else { return (failing, nil) }
        let ranked = failing.map { (failing: $0, plausibility: SchedulePlausibility($0.outcome)) }
            .enumerated().sorted { ($0.element.plausibility, $0.offset) < ($1.element.plausibility, $1.offset) }
            .map(\.element)
        let first = ranked[0]
        let lessPlausible = ranked.dropFirst().filter {
            $0.failing.outcome.failure!.isSameFailure(as: first.failing.outcome.failure!) && first.plausibility < $0.plausibility
        }
        return (ranked.map(\.failing), lessPlausible.count)
    }

    static func scheduleSeed(_ index: Int, plan: ExplorationPlan, expectedDecisions: Int) -> ScheduleSeed {
        ScheduleSeed(
            strategy: plan.strategy, seed: plan.seedStart &+ UInt64(index), depth: plan.depth,
            expectedDecisions: expectedDecisions)
    }
}
