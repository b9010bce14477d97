import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

/// ScrollKitty's shipped variant scenario over the socket: with the seed's mistake
/// (`variant: extensionTimer`) the shield never returns after the cooldown; the correct port
/// passes the same steps.
@Suite struct ScrollKittyScenarioTests {
    @Test func theExtensionTimerVariantLosesTheShieldAndTheCorrectPortDoesNot() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let shipped = try ScenarioTests.scenario("scrollkitty-extension-timer")
        let run = try daemon.call("scenario.run", ["scenario": shipped])
        let failure = try #require(run["failures"]?.arrayValue?.first)
        #expect(failure["step"] == "steps[6]" && failure["message"] == "expected com.burbn.instagram shielded: it is not")
        #expect(run["trace"]?.arrayValue?.contains { $0["kind"] == "timer.lost" && $0["label"] == "reshield" } == true)
        guard case .object(var correct) = shipped else {
            Issue.record("the shipped scenario is not an object")
            return
        }
        correct["config"] = nil
        correct["expectFailure"] = nil
        let fixed = try daemon.call("scenario.run", ["scenario": .object(correct)])
        #expect(fixed["passed"] == true, "\(fixed["failures"] ?? .null)")
        #expect(fixed["trace"]?.arrayValue?.contains { $0["kind"] == "notification" && $0["title"] == "Shield Returning" } == true)
    }
}
