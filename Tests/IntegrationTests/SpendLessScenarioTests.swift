import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

/// SpendLess's shipped race scenario over the socket: the shield's double tap and SpendLess
/// becoming active race on the flag; whatever the interleaving, one intervention runs on, for the
/// app pressed last, and the flag ends false (docs/apps/spendless.md, "The flag race").
@Suite struct SpendLessScenarioTests {
    @Test func theFlagRacePassesItsRunAndAnExploration() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        daemon.answerTimeout = 300
        let shipped = try ScenarioTests.scenario("spendless-flag-race")
        let run = try daemon.call("scenario.run", ["scenario": shipped])
        #expect(run["passed"] == true, "\(run["failures"] ?? .null)")
        #expect(run["trace"]?.arrayValue?.filter { $0["kind"] == "app" && $0["event"] == "interventionStarted" }.count == 1)
        let explored = try daemon.call(
            "scenario.explore", ["scenario": shipped, "strategy": "dfs", "preemptionBound": 1, "schedules": 100_000])
        #expect(explored["passed"] == true, "\(explored["failures"] ?? .null)")
        #expect(explored["exhaustive"] == true)
        #expect(explored["failed"] == 0)
    }
}
