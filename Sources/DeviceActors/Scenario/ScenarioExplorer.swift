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
        if baseline.failure != nil, !baseline.interrupted {
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
        } else {
            // Counted, not listed: ten million schedules made an array of 80 MB, seconds in the making.
            let step = max(1, plan.shard.count)
            let count = plan.schedules > plan.shard.index ? (plan.schedules - plan.shard.index + step - 1) / step : 0
            let state = SharedState(first: plan.shard.index, step: step, count: count)
            jobs = max(1, min(plan.jobs, count))
            if let reason = control.stopReason() { state.stop(reason) }
            control.spread(jobs) {
                while let index = state.claim(stopAtFirst: plan.stopAtFirst) {
                    if let reason = control.stopReason() { return state.stop(reason) }
                    if let deadline, DispatchTime.now().uptimeNanoseconds >= deadline { return state.stop("timeLimit") }
                    let seed = scheduleSeed(index, plan: plan, expectedDecisions: baseline.decisions)
                    let outcome = ScenarioRunner.run(
                        scenario, seed: seed, quirks: plan.swarm ? seed.swarmQuirks : [:],
                        faults: plan.swarm ? seed.swarmFaults(scenario.faults) : scenario.faults, interruption: isStopped)
                    if outcome.interrupted { return state.stop(control.stopReason() ?? "cancelled") }
                    let progress = state.record(index: index, outcome: outcome, stopAtFirst: plan.stopAtFirst)
                    if progress.done % control.progressEvery == 0 || outcome.failure != nil { control.progress(progress) }
                }
            }
            failing = state.failures.map { (index: $0.0, outcome: $0.1) }
            let (schedules, failed) = state.counts
            counts = (schedules, failed, state.done, state.steps, state.decisions)
            stoppedBy = state.stoppedBy
            covered = state.coveredCount
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let failures = failing.enumerated().map { position, failing in
            let (index, outcome) = failing
            let seed =
                index < 0
                ? ScheduleSeed(strategy: .fifo, seed: 0, depth: nil, expectedDecisions: nil)
                : plan.strategy == .dfs
                    ? ScheduleSeed(strategy: .dfs, seed: UInt64(index), depth: nil, expectedDecisions: nil)
                    : scheduleSeed(index, plan: plan, expectedDecisions: baseline.decisions)
            let reason = outcome.failure!
            // Only the first failure is shrunk: each shrink replays the scenario hundreds of times.
            var shrunk = outcome
            if position == 0 {
                let smallest = ScheduleShrinker(scenario: scenario, quirks: outcome.quirks, interruption: isStopped)
                    .shrink(outcome.deviations, faults: outcome.faults, failing: reason, preemptions: outcome.preemptions)
                let replayed = ScenarioRunner.run(
                    scenario, replaying: .deviations(smallest.deviations, faults: smallest.faults), quirks: outcome.quirks,
                    interruption: isStopped)
                if replayed.failure?.isSameFailure(as: reason) == true { shrunk = replayed }
            }
            return ExplorationFailure(
                reason: shrunk.failure ?? reason, index: index, seed: seed, shrunk: shrunk, original: outcome,
                scenarioHash: plan.scenarioHash, build: build)
        }
        var report = ExplorationReport(
            schedules: counts.schedules, failed: counts.failed, firstFailingSeed: failures.first.map(\.seed),
            failures: failures, schedulesPerSecond: Double(counts.done) / max(seconds, 1e-9),
            stepsPerSecond: Double(counts.steps) / max(seconds, 1e-9),
            decisionsPerSecond: Double(counts.decisions) / max(seconds, 1e-9), steps: counts.steps, decisions: counts.decisions,
            seconds: seconds, stoppedBy: stoppedBy, jobs: jobs, expectedDecisions: baseline.decisions)
        report.covered = covered
        if plan.strategy == .dfs {
            report.exhaustive = exhaustive ?? false
            report.bound = plan.preemptionBound
            report.pruned = pruned ?? 0
        }
        if scenario.expectFailure { report.expectFailure = true }
        return report
    }

    static func scheduleSeed(_ index: Int, plan: ExplorationPlan, expectedDecisions: Int) -> ScheduleSeed {
        ScheduleSeed(
            strategy: plan.strategy, seed: plan.seedStart &+ UInt64(index), depth: plan.depth,
            expectedDecisions: expectedDecisions)
    }

    /// The workers' shared bookkeeping.
    // unchecked: lock-protected: every var is touched only under `lock` (NSLock, which TSan follows; Mutex it cannot see)
    private final class SharedState: @unchecked Sendable {
        private let lock = NSLock()
        /// The shard's schedule indexes, in order: `indexes[next]` is `first + next × step`.
        private let first: Int
        private let step: Int
        private let count: Int
        private var next = 0
        private var lowestFailure: Int?
        private(set) var done = 0
        private(set) var steps = 0
        private(set) var decisions = 0
        private(set) var stoppedBy: String?
        /// How many of the shard's schedules, from its first, have all run (``ExplorationProgress/covered``).
        private(set) var covered = 0
        /// Positions in the shard's order above ``covered`` that have run while a lower one
        /// still ran (jobs finish out of order).
        private var ranAhead: Set<Int> = []
        /// The failing schedules with the lowest indexes (traces are kept for shrinking).
        private var failing: [Int: ScenarioOutcome] = [:]
        private var failedTotal = 0
        static let keptFailures = 20

        init(first: Int, step: Int, count: Int) {
            self.first = first
            self.step = step
            self.count = count
        }

        func claim(stopAtFirst: Bool) -> Int? {
            lock.withLock {
                guard next < count, stoppedBy == nil || stoppedBy == "failure" else { return nil }
                let index = first + next * step
                if stopAtFirst, let lowestFailure, index > lowestFailure { return nil }
                next += 1
                return index
            }
        }

        func stop(_ reason: String) { lock.withLock { if stoppedBy == nil { stoppedBy = reason } } }

        func record(index: Int, outcome: ScenarioOutcome, stopAtFirst: Bool) -> ExplorationProgress {
            lock.withLock {
                done += 1
                ranAhead.insert((index - first) / step)
                while ranAhead.remove(covered) != nil { covered += 1 }
                steps += outcome.steps
                decisions += outcome.decisions
                if outcome.failure != nil {
                    failedTotal += 1
                    failing[index] = outcome
                    if failing.count > Self.keptFailures, let highest = failing.keys.max() { failing[highest] = nil }
                    lowestFailure = min(lowestFailure ?? index, index)
                    if stopAtFirst, next < count { stoppedBy = stoppedBy ?? "failure" }
                }
                return ExplorationProgress(done: done, failed: failedTotal, covered: covered)
            }
        }

        /// Schedules run and failed; after a stop at the first failure, those up to it (the
        /// ones above it that were already running are not counted).
        var counts: (Int, Int) {
            lock.withLock {
                guard stoppedBy == "failure", let lowestFailure else { return (done, failedTotal) }
                return ((lowestFailure - first) / step + 1, 1)
            }
        }

        /// ``covered``, and after a stop at the first failure at most up to it (as ``counts``).
        var coveredCount: Int {
            lock.withLock {
                guard stoppedBy == "failure", let lowestFailure else { return covered }
                return min(covered, (lowestFailure - first) / step + 1)
            }
        }

        /// Failures by index; with stop-at-first only the lowest (others were racing it).
        var failures: [(Int, ScenarioOutcome)] {
            lock.withLock {
                let sorted = failing.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
                return stoppedBy == "failure" ? Array(sorted.prefix(1)) : sorted
            }
        }
    }
}
