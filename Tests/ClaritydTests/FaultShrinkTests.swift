import ExtensionSandbox
import Foundation
import Testing

@testable import DeviceActors

/// Shrinking drops an earlier fault the failure does not need, though dropping it renumbers the
/// later sites of its kind (issue 42, leftover 7a): a fault site is numbered among the sites of its
/// kind met before it, and an extension not killed meets more of them.
@Suite struct FaultShrinkTests {
    /// Clarity's friction under faults fails with one late jetsam and no deviation. Found with
    /// an earlier, harmless jetsam too — which moves the late one to another site number — it
    /// shrinks to the late jetsam alone.
    @Test func anEarlierFaultTheFailureDoesNotNeedGoesThoughItRenumbersTheLaterOnes() throws {
        let scenario = try shippedScenario("clarity-friction-under-faults")
        let late = FaultSite(.jetsam, at: 7)
        let alone = ScenarioRunner.run(scenario, replaying: .deviations([], faults: [late]))
        let reason = try #require(alone.failure, "jetsam@7 alone no longer fails the scenario")
        func failsTheSameWay(_ faults: [FaultSite]) -> Bool {
            let outcome = ScenarioRunner.run(scenario, replaying: .deviations([], faults: faults))
            return outcome.divergence == nil && outcome.failure?.isSameFailure(as: reason) == true && outcome.faults == faults
        }
        // An earlier jetsam that fails nothing alone, with the late one renumbered after it: as
        // an exploration would find the pair.
        let pair = (0..<late.index).lazy.flatMap { early in
            (-late.index...12).lazy.map { shift in [FaultSite(.jetsam, at: early), FaultSite(.jetsam, at: late.index + shift)] }
        }.first { pair in
            pair[1].index > pair[0].index && failsTheSameWay(pair) && !failsTheSameWay([pair[0]]) && !failsTheSameWay([pair[1]])
        }
        let found = try #require(pair, "no earlier jetsam that renumbers the late one")
        let shrunk = ScheduleShrinker(scenario: scenario, quirks: [:], interruption: nil)
            .shrink([], faults: found, failing: reason)
        #expect(shrunk.faults == [late], "found with \(found)")
        #expect(shrunk.deviations.isEmpty)
    }
}
