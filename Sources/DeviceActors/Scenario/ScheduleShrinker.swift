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
/// each fault is tried without, latest first, the later sites of its kind renumbered as dropping it
/// may shift them (``renumbered(_:dropping:)``; a failure that needs none is told without one). At most
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
            let verdict = DeviationNeed.Without(outcome, against: reason, preemptions: fewest, plausibility: mostPlausible)
            guard verdict == .sameFailure else { return false }
            fewest = outcome.preemptions
            mostPlausible = SchedulePlausibility(outcome)
            return true
        }
        var best = deviations
        func dropDeviations() {
            if !best.isEmpty, stillFails([], faults: keptFaults) { best = [] }
            best = DeltaDebugging.minimize(
                best, keeps: { stillFails($0, faults: keptFaults) }, shouldStop: { runs >= budget || interruption?() == true })
        }
        dropDeviations()
        // Latest first. A site is numbered among the sites of its kind met before it, so
        // dropping an earlier fault renumbers the later ones of its kind (a process not killed
        // goes on and meets more sites): each candidate is tried with those shifted too, with
        // the deviations kept and, as they may have served the dropped fault only, without.
        var droppedAFault = false
        for fault in faults.reversed() where runs < budget {
            for candidate in Self.renumbered(keptFaults, dropping: fault) where runs < budget {
                let kept: [ScheduleDeviation]? =
                    stillFails(best, faults: candidate) ? best : !best.isEmpty && stillFails([], faults: candidate) ? [] : nil
                guard let kept else { continue }
                (best, keptFaults, droppedAFault) = (kept, candidate, true)
                break
            }
        }
        // Without a fault, deviations it needed may go.
        if droppedAFault { dropDeviations() }
        return (best, keptFaults)
    }

    /// The farthest a later site is shifted when an earlier fault of its kind is dropped.
    static let siteShift = 12

    /// `faults` without `dropped`: as they are, then with the later sites of its kind shifted
    /// by 1, −1, 2, −2 … up to ``siteShift`` (a shift that would move one to or before the
    /// dropped site is left out). Nothing when `dropped` is not among them.
    static func renumbered(_ faults: [FaultSite], dropping dropped: FaultSite) -> [[FaultSite]] {
        guard faults.contains(dropped) else { return [] }
        let without = faults.filter { $0 != dropped }
        let later = without.filter { $0.fault == dropped.fault && $0.index > dropped.index }
        guard !later.isEmpty else { return [without] }
        let shifts = (1...siteShift).flatMap { [$0, -$0] }
        return [without]
            + shifts.compactMap { shift in
                guard later.allSatisfy({ $0.index + shift > dropped.index }) else { return nil }
                return without.map { $0.fault == dropped.fault && $0.index > dropped.index ? FaultSite($0.fault, at: $0.index + shift) : $0 }
            }
    }
}
