import Foundation

/// The bookkeeping an exploration's workers share (``ScenarioExplorer``): which schedule runs
/// next, what ran, what failed.
///
/// With stop-at-first, the exploration ends at the first failing schedule when it is `likely`
/// (``SchedulePlausibility``); when it is not, up to `window` more schedules run, to the first
/// `likely` one of the same failure, and the most plausible of them is reported first, then the
/// first one found. Which schedules count depends only on their indexes: schedules are claimed in
/// order, so every one up to the end counted has run whatever the number of jobs.
// unchecked: lock-protected: every var is touched only under `lock` (NSLock, which TSan follows; Mutex it cannot see)
final class ExplorationLedger: @unchecked Sendable {
    /// A failure as stop-at-first weighs it: no device kept.
    private struct Note {
        let reason: ScenarioFailureReason
        let plausibility: SchedulePlausibility
    }

    private let lock = NSLock()
    /// The shard's schedule indexes, in order: `indexes[next]` is `first + next × step`.
    private let first: Int
    private let step: Int
    private let count: Int
    private let stopAtFirst: Bool
    private let window: Int
    private let plausibleOnly: Bool
    private var next = 0
    private(set) var done = 0
    private(set) var steps = 0
    private(set) var decisions = 0
    private(set) var stoppedBy: String?
    /// Failing schedules not counted as failures because they are not `likely` (`plausibleOnly`).
    private(set) var implausible = 0
    /// How many of the shard's schedules, from its first, have all run (``ExplorationProgress/covered``).
    private(set) var covered = 0
    /// Positions in the shard's order above ``covered`` that have run while a lower one
    /// still ran (jobs finish out of order).
    private var ranAhead: Set<Int> = []
    /// The failing schedules with the lowest indexes (traces are kept for shrinking).
    private var failing: [Int: ScenarioOutcome] = [:]
    /// With stop-at-first, every failure by index.
    private var notes: [Int: Note] = [:]
    private var failedTotal = 0
    static let keptFailures = 20

    init(first: Int, step: Int, count: Int, stopAtFirst: Bool, window: Int, plausibleOnly: Bool) {
        self.first = first
        self.step = step
        self.count = count
        self.stopAtFirst = stopAtFirst
        self.window = max(0, window)
        self.plausibleOnly = plausibleOnly
    }

    func claim() -> Int? {
        lock.withLock {
            guard next < count, stoppedBy == nil || stoppedBy == "failure" else { return nil }
            let index = first + next * step
            if stopAtFirst, let end = lastCounted, index > end { return nil }
            next += 1
            return index
        }
    }

    func stop(_ reason: String) { lock.withLock { if stoppedBy == nil { stoppedBy = reason } } }

    /// Notes a schedule that ran; `plausibility` is its, when it failed.
    func record(index: Int, outcome: ScenarioOutcome, plausibility: SchedulePlausibility?) -> ExplorationProgress {
        lock.withLock {
            done += 1
            ranAhead.insert((index - first) / step)
            while ranAhead.remove(covered) != nil { covered += 1 }
            steps += outcome.steps
            decisions += outcome.decisions
            if let failure = outcome.failure, let plausibility {
                if plausibleOnly, plausibility.plausibility != .likely {
                    implausible += 1
                } else {
                    failedTotal += 1
                    failing[index] = outcome
                    if failing.count > Self.keptFailures, let highest = failing.keys.max() { failing[highest] = nil }
                    if stopAtFirst {
                        notes[index] = Note(reason: failure, plausibility: plausibility)
                        if next < count { stoppedBy = stoppedBy ?? "failure" }
                    }
                }
            }
            return ExplorationProgress(done: done, failed: failedTotal, covered: covered)
        }
    }

    /// With stop-at-first, once a schedule failed: the index of the last schedule that counts —
    /// the first failure when it is `likely`; else the first `likely` one of the same failure
    /// within `window` schedules after it, or the window's end.
    private var lastCounted: Int? {
        guard let lowest = notes.keys.min(), let firstNote = notes[lowest] else { return nil }
        guard firstNote.plausibility.plausibility != .likely else { return lowest }
        let windowEnd = lowest + window * step
        let likely = notes.filter {
            $0.key <= windowEnd && $0.value.plausibility.plausibility == .likely
                && $0.value.reason.isSameFailure(as: firstNote.reason)
        }
        return likely.keys.min() ?? windowEnd
    }

    /// ``lastCounted``, cut to the schedules that all ran from the first (a time limit or a
    /// cancel may stop the window before its end), never before the first failure.
    private var countedEnd: Int? {
        guard let end = lastCounted, let lowest = notes.keys.min() else { return nil }
        return min(end, max(lowest, first + (covered - 1) * step))
    }

    /// How many of the shard's positions, from its first, are up to `index`.
    private func positions(upTo index: Int) -> Int { min(count, (index - first) / step + 1) }

    /// Schedules run and failed; after a stop at the first failure, those up to the last that
    /// counts (the ones above it that were already running are not counted).
    var counts: (Int, Int) {
        lock.withLock {
            guard stoppedBy == "failure", let end = countedEnd else { return (done, failedTotal) }
            return (positions(upTo: end), notes.keys.filter { $0 <= end }.count)
        }
    }

    /// ``covered``, and after a stop at the first failure at most up to it (as ``counts``).
    var coveredCount: Int {
        lock.withLock {
            guard stoppedBy == "failure", let end = countedEnd else { return covered }
            return min(covered, positions(upTo: end))
        }
    }

    /// Failures by index, each with its outcome when it was kept. After a stop at the first
    /// failure: the most plausible of its failure up to the last that counts, then the first
    /// (when it is another), and how many of that failure were less plausible than the most
    /// plausible; else every kept failure and nil (the caller ranks them).
    var failures: (failing: [(index: Int, outcome: ScenarioOutcome?)], lessPlausible: Int?) {
        lock.withLock {
            guard stopAtFirst, let end = countedEnd, let lowest = notes.keys.min(), let firstNote = notes[lowest] else {
                return (failing.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, nil)
            }
            let same = notes.filter { $0.key <= end && $0.value.reason.isSameFailure(as: firstNote.reason) }
            let best = same.min { ($0.value.plausibility, $0.key) < ($1.value.plausibility, $1.key) }!
            let lessPlausible = same.values.filter { best.value.plausibility < $0.plausibility }.count
            let shown = best.key == lowest ? [lowest] : [best.key, lowest]
            return (shown.map { ($0, failing[$0]) }, lessPlausible)
        }
    }
}
