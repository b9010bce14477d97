import Testing

@testable import DeviceActors
@testable import ExtensionSandbox

/// The stall arithmetic on a recorded decision log: what the others performed while a task was
/// set aside, at the modelled cost of each operation.
@Suite struct PreemptionStallTests {
    private static func candidate(_ task: Int, _ process: String, _ operation: VisibleOperation) -> Decision.Candidate {
        Decision.Candidate(task: task, process: process, operation: operation)
    }

    /// The example: the ShieldAction set aside between two App Group calls while the
    /// app's callback is delivered (an extension launch) and it writes a key.
    @Test func aStallBetweenTwoAppGroupCallsWhileAnExtensionLaunchesNeedsAStall() {
        let read = VisibleOperation("read", "group.com.example.wallet", "balance")
        let write = VisibleOperation("write", "group.com.example.wallet", "balance")
        let deliver = VisibleOperation("deliver", "intervalDidStart")
        let written = VisibleOperation("write", "group.com.example.wallet", "spent")
        let decisions = [
            Decision(
                index: 0, position: 1,
                candidates: [Self.candidate(1, "wallet.shieldAction", read), Self.candidate(2, "wallet.monitor", deliver)],
                current: nil, chosen: 1),
            Decision(
                index: 1, position: 2,
                candidates: [Self.candidate(1, "wallet.shieldAction", write), Self.candidate(2, "wallet.monitor", deliver)],
                current: 1, chosen: 2),
            Decision(
                index: 2, position: 3,
                candidates: [Self.candidate(1, "wallet.shieldAction", write), Self.candidate(2, "wallet.monitor", written)],
                current: 2, chosen: 2),
            Decision(
                index: 3, position: 4, candidates: [Self.candidate(1, "wallet.shieldAction", write)], current: nil, chosen: 1),
        ]
        let plausibility = SchedulePlausibility(decisions: decisions, faults: [])
        #expect(plausibility.plausibility == .needsAStall)
        #expect(plausibility.stalls.map(\.text) == ["needs wallet.shieldAction to pause ≥ 30.02 ms between two App Group calls"])
        #expect(plausibility.stalls.map(\.meanwhile) == [2])

        let quick = decisions.enumerated().map { index, decision in
            index == 1
                ? Decision(
                    index: 1, position: 2,
                    candidates: [Self.candidate(1, "wallet.shieldAction", write), Self.candidate(2, "wallet.monitor", written)],
                    current: 1, chosen: 2)
                : decision
        }
        let likely = SchedulePlausibility(decisions: quick, faults: [])
        #expect(likely.plausibility == .likely)
        #expect(likely.stalls.map(\.text) == ["needs wallet.shieldAction to pause ≥ 40 µs between two App Group calls"])
    }

    @Test func aScheduleThatInjectsAFaultNeedsAFault() {
        #expect(SchedulePlausibility(decisions: [], faults: [FaultSite(.jetsam, at: 0)]).plausibility == .needsAFault)
        #expect(SchedulePlausibility(decisions: [], faults: []).plausibility == .likely)
    }
}
