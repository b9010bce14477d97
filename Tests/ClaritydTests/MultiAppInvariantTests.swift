import BuiltInApps
import ControlProtocol
import ExtensionSandbox
import Foundation
import ScenarioFiles
import Testing

@testable import ClarityDaemon
@testable import DeviceActors

/// On a device with several apps, each app's built-in invariants judge that app's stores, keys
/// and processes only: ScrollKitty shielding Instagram for its own selection broke Clarity's
/// `onlySelectedAppsShielded`, which read ScrollKitty's stores against Clarity's selection, and
/// a recorded session of three apps failed its replay so (issue 38).
@Suite struct MultiAppInvariantTests {
    private static func scenario(apps: [String], steps: [JSONValue]) throws -> Scenario {
        try ScenarioFile.requested(
            [
                "name": "two apps", "apps": .array(apps.map(JSONValue.string)), "start": "2026-01-05T09:00:00Z",
                "timezone": "UTC", "steps": .array(steps),
            ],
            catalog: .builtIn)
    }

    private static func selectInstagram(on app: String) -> JSONValue {
        ["intent": ["name": "selectApps", "args": ["apps": ["com.burbn.instagram"]], "app": .string(app)]]
    }

    @Test(arguments: [["scrollkitty", "clarity"], ["clarity", "scrollkitty"]])
    func anotherAppsShieldsAreNotClaritys(_ apps: [String]) throws {
        let scenario = try Self.scenario(
            apps: apps,
            steps: [
                Self.selectInstagram(on: "scrollkitty"),
                ["event": ["type": "app.open", "app": "com.burbn.instagram"]],
                ["expect": ["shielded": ["app": "com.burbn.instagram", "is": true]]],
            ])
        let outcome = ScenarioRunner.run(scenario, strategy: FIFOStrategy())
        #expect(outcome.passed, "\(outcome.failure.map { "\($0.invariant ?? "-"): \($0.message)" } ?? "")")
    }

    /// Each app's view holds its own stores and its own processes' trace entries, beside the
    /// system's: what Clarity's rules read is Clarity's, and ScrollKitty's is ScrollKitty's.
    @Test func eachAppSeesItsOwnStoresAndProcesses() throws {
        let scenario = try Self.scenario(
            apps: ["scrollkitty", "clarity"],
            steps: [
                Self.selectInstagram(on: "clarity"), Self.selectInstagram(on: "scrollkitty"),
                ["event": ["type": "app.open", "app": "com.burbn.instagram"]],
            ])
        let outcome = ScenarioRunner.run(scenario, strategy: FIFOStrategy())
        let device = try #require(outcome.device)
        let clarity = AppInvariantContext(device: device, appName: "clarity")
        let scrollKitty = AppInvariantContext(device: device, appName: "scrollkitty")
        #expect(try scrollKitty.shieldStores().values.contains { $0.applications.contains("com.burbn.instagram") })
        #expect(try clarity.shieldStores().values.allSatisfy(\.isEmpty))
        let claritys = Set(clarity.traceSoFar.map(\.actor))
        #expect(claritys.contains("clarity.app") && claritys.contains("springBoard"), "\(claritys)")
        #expect(!claritys.contains { $0.hasPrefix("scrollkitty.") }, "\(claritys)")
        #expect(Set(scrollKitty.traceSoFar.map(\.actor)).contains("scrollkitty.app"))
    }
}
