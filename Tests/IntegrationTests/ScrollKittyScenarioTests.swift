import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

/// ScrollKitty's shipped variant scenario over the socket: with the seed's mistake
/// (`variant: extensionTimer`) the shield never returns after the cooldown; the correct port
/// passes the same steps.
@Suite struct ScrollKittyScenarioTests {
    /// A shipped variant scenario: where it fails with the variant, what it says, and a trace
    /// event of the symptom's cause (kind and a member).
    struct VariantScenario: Sendable, CustomTestStringConvertible {
        let name: String
        let step: String
        let message: String
        let cause: (kind: String, member: String, value: JSONValue)
        var testDescription: String { name }
    }

    static let variants = [
        VariantScenario(
            name: "scrollkitty-extension-timer", step: "steps[6]",
            message: "expected com.burbn.instagram shielded: it is not", cause: ("timer.lost", "label", "reshield")),
        VariantScenario(
            name: "scrollkitty-no-notification-auth", step: "steps[4]",
            message: "expected a notification with title containing \"Lost 10 HP\": none",
            cause: ("notification.suppressed", "reason", "notDetermined")),
        VariantScenario(
            name: "scrollkitty-monitor-reapplies", step: "steps[4]",
            message: "expected com.burbn.instagram not shielded: it is", cause: ("monitor.intervalStart", "activity", "scrollkitty_cooldown_Y29tLmJ1cmJuLmluc3RhZ3JhbQ==")),
    ]

    /// Each seed mistake (docs/apps/scrollkitty.md, "Variants") shows its Critical Issue with its
    /// variant, and the correct port passes the same steps.
    @Test(arguments: variants)
    func theVariantShowsItsSymptomAndTheCorrectPortDoesNot(_ variant: VariantScenario) throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let shipped = try ScenarioTests.scenario(variant.name)
        let run = try daemon.call("scenario.run", ["scenario": shipped])
        let failure = try #require(run["failures"]?.arrayValue?.first)
        #expect(failure["step"] == .string(variant.step))
        #expect(failure["message"] == .string(variant.message))
        #expect(run["trace"]?.arrayValue?.contains { $0["kind"] == .string(variant.cause.kind) && $0[variant.cause.member] == variant.cause.value } == true)
        guard case .object(var correct) = shipped else {
            Issue.record("the shipped scenario is not an object")
            return
        }
        correct["config"] = nil
        correct["expectFailure"] = nil
        let fixed = try daemon.call("scenario.run", ["scenario": .object(correct)])
        #expect(fixed["passed"] == true, "\(fixed["failures"] ?? .null)")
    }

    /// The race between the main app and ShieldAction (issue 19, item 3): with the seed's
    /// read-modify-write of `appHealthData`, exploration finds a lost update and the race detector
    /// names it; the replay token reproduces it. The correct port (one writer per key) survives
    /// every schedule tried (`.ci/run` tries 10 000 in a release build).
    @Test func theConcurrentBypassRaceIsFoundInTheSeedsWayAndNotInThePort() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let seedsWay = try ScenarioTests.scenario("scrollkitty-concurrent-bypass")
        let found = try daemon.call("scenario.explore", ["scenario": seedsWay, "schedules": 200])
        #expect(found["passed"] == true, "pinned with expectFailure: it passes by failing")
        let failure = try #require(found["failures"]?.arrayValue?.first, "\(found)")
        #expect(failure["invariant"] == "race")
        #expect(failure["step"] == "steps[3]")
        let token = try #require(failure["schedule"]?.stringValue)
        let replay = try daemon.call("scenario.replay", ["scenario": seedsWay, "schedule": .string(token)])
        let races = try #require(replay["trace"]?.arrayValue).filter { $0["kind"] == "race" }
        #expect(races.first?["key"] == "appHealthData", "\(races)")

        let port = try ScenarioTests.scenario("scrollkitty-concurrent-bypass-fixed")
        let survived = try daemon.call("scenario.explore", ["scenario": port, "schedules": 300, "strategy": "random"])
        #expect(survived["failures"] == [], "\(survived)")
        #expect(survived["schedules"] == 300)
    }

    /// The atomic rule (docs/apps/scrollkitty.md, "HP atomicity") explored: a double tap on
    /// Continue costs 20 HP in every schedule tried; without the in-process lock
    /// (`readModifyWrite`) it costs 10.
    @Test func aDoubleTapCostsTwentyHPUnlessTheSeedsReadModifyWriteIsOn() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let shipped = try ScenarioTests.scenario("scrollkitty-double-tap")
        let explored = try daemon.call("scenario.explore", ["scenario": shipped, "schedules": 200, "strategy": "pct"])
        #expect(explored["failures"] == [], "\(explored)")
        guard case .object(var seedsWay) = shipped else {
            Issue.record("the shipped scenario is not an object")
            return
        }
        seedsWay["config"] = ["app": ["variant": "readModifyWrite"]]
        let run = try daemon.call("scenario.run", ["scenario": .object(seedsWay)])
        let failure = try #require(run["failures"]?.arrayValue?.first)
        #expect(failure["step"] == "steps[4]" && failure["message"] == "expected state app.totalHP equals 80: got 90")
    }
}

