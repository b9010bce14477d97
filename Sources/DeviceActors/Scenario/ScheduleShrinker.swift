import ExtensionSandbox
@_spi(Host) import SimulatediOS

/// Shrinks a failing schedule to the fewest preemptions, then the fewest deviations from the
/// non-preemptive schedule, that still fail *the same way*
/// (``ScenarioFailureReason/isSameFailure(as:)``): a lost update of the app over the monitor
/// must not shrink to the monitor over the app. A candidate with more preemptions than the best
/// so far, or less plausible (``SchedulePlausibility``: it needs a longer stall), is refused,
/// even with fewer deviations.
///
/// A schedule is the non-preemptive pick everywhere but at its deviations, so removing one
/// makes that decision keep running the task that could go on (as CHESS counts it, the fewer
/// preemptions the more readable the story). It tries the non-preemptive schedule first, then
/// removes runs of deviations, halving their length down to single ones (delta debugging). A
/// candidate whose replay diverges (a later deviation's task is not ready where it picks it) is
/// one that does not fail the same way. The faults that fired are kept while deviations go; then
/// each fault is tried without, latest first (a failure that needs none is told without one). At most
/// `budget` replays; stops early, with the best found so far, once `interruption` says so.
struct ScheduleShrinker {
    let scenario: Scenario
    let quirks: [String: Bool]
    var budget = 400
    let interruption: (@Sendable () -> Bool)?

    func shrink(
        _ deviations: [ScheduleDeviation], faults: [FaultSite] = [], failing reason: ScenarioFailureReason,
        preemptions: Int = .max, plausibility: SchedulePlausibility? = nil
    ) -> (deviations: [ScheduleDeviation], faults: [FaultSite]) {
        var runs = 0
        var fewest = preemptions
        var mostPlausible = plausibility
        var keptFaults = faults
        func stillFails(_ candidate: [ScheduleDeviation], faults: [FaultSite]) -> Bool {
            guard runs < budget, interruption?() != true else { return false }
            runs += 1
            let outcome = ScenarioRunner.run(
                scenario, replaying: .deviations(candidate, faults: faults), quirks: quirks, interruption: interruption)
            guard outcome.divergence == nil, let failure = outcome.failure, failure.isSameFailure(as: reason),
                outcome.preemptions <= fewest
            else { return false }
            let plausible = SchedulePlausibility(outcome)
            if let mostPlausible, mostPlausible < plausible { return false }
            fewest = outcome.preemptions
            mostPlausible = plausible
            return true
        }
        var best = deviations
        if !deviations.isEmpty, stillFails([], faults: keptFaults) { best = [] }
        var chunk = max(1, best.count / 2)
        while !best.isEmpty, runs < budget, interruption?() != true {
            var changed = false
            var start = 0
            while start < best.count, runs < budget {
                var candidate = best
                candidate.removeSubrange(start..<min(start + chunk, best.count))
                if stillFails(candidate, faults: keptFaults) {
                    best = candidate
                    changed = true
                } else {
                    start += chunk
                }
            }
            if chunk == 1 && !changed { break }
            if !changed { chunk = max(1, chunk / 2) }
        }
        // Latest first: a site is numbered among the sites met before it, so dropping an
        // earlier fault renumbers every later one (its callback goes on and meets more sites).
        for fault in faults.reversed() where runs < budget {
            let without = keptFaults.filter { $0 != fault }
            if stillFails(best, faults: without) { keptFaults = without }
        }
        return (best, keptFaults)
    }
}
