import Testing

@testable import DeviceActors

/// Shrinking keeps a failure only when it is the same failure: the same step, invariant and kind.
@Suite struct FailureKindTests {
    @Test func aLostUpdateTheOtherWayRoundIsAnotherFailure() {
        let appOverMonitor = ScenarioFailureReason(
            message: "lost update (seq 84)", step: "steps[9]", invariant: "race",
            kind: "prosocialChallengeVerified: clarity.app over clarity.monitor")
        let again = ScenarioFailureReason(
            message: "lost update (seq 91)", step: "steps[9]", invariant: "race",
            kind: "prosocialChallengeVerified: clarity.app over clarity.monitor")
        let reverse = ScenarioFailureReason(
            message: "lost update (seq 84)", step: "steps[9]", invariant: "race",
            kind: "prosocialChallengeVerified: clarity.monitor over clarity.app")
        #expect(appOverMonitor.isSameFailure(as: again), "the numbers in the message do not matter")
        #expect(!appOverMonitor.isSameFailure(as: reverse))
        #expect(!appOverMonitor.isSameFailure(as: ScenarioFailureReason(message: "", step: "steps[8]", invariant: "race", kind: again.kind)))
    }

    @Test func aTokenReadsBackAndRefusesWhatIsNotOne() throws {
        let token = ScheduleToken(scenarioHash: "8c016fbf1f22746f", deviations: [.init(decision: 9, task: 29), .init(decision: 12, task: 31)])
        #expect(token.description == "v2:8c016fbf1f22746f:9@29,12@31")
        #expect(try ScheduleToken.parse(token.description).get() == token)
        #expect(try ScheduleToken.parse("v2:8c016fbf1f22746f:").get().deviations.isEmpty)
        for bad in ["v1:ab:1@2", "v2:ab", "v2:ab:1@x", "v2:ab:5@1,3@1", "1,2,3"] {
            #expect(throws: ScheduleToken.TokenError.self, "\(bad)") { try ScheduleToken.parse(bad).get() }
        }
    }
}
