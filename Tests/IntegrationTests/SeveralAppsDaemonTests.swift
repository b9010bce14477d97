import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

/// Several apps on one device over the socket (docs/protocol.md, "Several apps on one device":
/// `device.create`'s `apps`, then `intent` takes `app`): ScrollKitty and SpendLess installed side
/// by side, each shielding through its own stores; the device survives `kill -9` and a compaction
/// as it was.
@Suite struct SeveralAppsDaemonTests {
    private static let instagram = "com.burbn.instagram"
    private static let amazon = "com.amazon.Amazon"

    private func field(_ body: () throws -> JSONValue) -> String? { errorField(body) }

    /// A device with both apps, each shielding one shopping or social app.
    private func both(on daemon: DaemonProcess) throws {
        let summary = try daemon.call("device.create", ["device": "both", "apps": ["scrollkitty", "spendless"]])
        #expect(summary["app"] == "scrollkitty")
        #expect(summary["apps"] == ["scrollkitty", "spendless"])
        _ = try daemon.call(
            "intent", ["device": "both", "app": "scrollkitty", "name": "selectApps", "args": ["apps": [.string(Self.instagram)]]])
        _ = try daemon.call(
            "intent", ["device": "both", "app": "spendless", "name": "selectApps", "args": ["apps": [.string(Self.amazon)]]])
    }

    private func look(_ daemon: DaemonProcess) throws -> [JSONValue] {
        try ["device.state", "shields.get", "sandbox.list", "activity.list", "trace.get"].map {
            try daemon.call($0, ["device": "both"])
        }
    }

    @Test func eachAppShieldsThroughItsOwnStoresAndIntentsNameTheirApp() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        try both(on: daemon)
        #expect(field { try daemon.call("intent", ["device": "both", "name": "status", "args": [:]]) } == "app")
        #expect(field { try daemon.call("intent", ["device": "both", "app": "clarity", "name": "status", "args": [:]]) } == "app")
        let shields = try daemon.call("shields.get", ["device": "both"])
        #expect(shields["effective"]?["applications"] == [.string(Self.amazon), .string(Self.instagram)])
        #expect(shields["apps"]?["spendless"]?.objectValue?.isEmpty == false)
        #expect(shields["apps"]?["scrollkitty"]?.objectValue?.isEmpty == false)
        let state = try daemon.call("device.state", ["device": "both"])
        #expect(state["apps"]?.arrayValue?.map { $0["name"] } == ["scrollkitty", "spendless"])
        let sandboxes = try daemon.call("sandbox.list", ["device": "both"])
        #expect(sandboxes.arrayValue?.compactMap { $0["app"]?.stringValue } == [
            "scrollkitty", "scrollkitty", "scrollkitty", "spendless", "spendless", "spendless",
        ])
        // Each app's shield is drawn by its own ShieldConfiguration.
        _ = try daemon.call("event", ["device": "both", "type": "app.open", "app": .string(Self.amazon)])
        let amazonShield = try daemon.call("shield.config", ["device": "both", "app": .string(Self.amazon)])
        let instagramShield = try daemon.call("shield.config", ["device": "both", "app": .string(Self.instagram)])
        #expect(amazonShield["shielded"] == true && instagramShield["shielded"] == true)
        #expect(amazonShield["title"] != instagramShield["title"], "\(amazonShield) \(instagramShield)")
        let one = try daemon.call("device.create", ["device": "one", "app": "scrollkitty"])
        #expect(one["apps"] == nil, "a device with one app reads as before")
    }

    @Test func aListOfAppsIsCheckedBeforeAnythingIsMade() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        #expect(field { try daemon.call("device.create", ["device": "x", "app": "clarity", "apps": ["clarity"]]) } == "apps")
        #expect(field { try daemon.call("device.create", ["device": "x", "apps": []]) } == "apps")
        #expect(field { try daemon.call("device.create", ["device": "x", "apps": ["clarity", "clarity"]]) } == "apps[1]")
        #expect(field { try daemon.call("device.create", ["device": "x", "apps": ["clarity", "nosuchapp"]]) } == "apps[1]")
        #expect(field { try daemon.call("device.create", ["device": "x", "apps": ["thephone", "clarity"], "platform": "android"]) } == "apps[1]")
        #expect(try daemon.call("device.list").arrayValue?.count == 1, "nothing was made")
    }

    @Test func theDeviceComesBackAsItWasAfterKillAndAfterACompaction() throws {
        let daemon = try DaemonProcess(config: ["compactJournalAfter": 4])
        defer { daemon.stop() }
        try both(on: daemon)
        _ = try daemon.call("event", ["device": "both", "type": "app.open", "app": .string(Self.instagram)])
        _ = try daemon.call("clock.advance", ["device": "both", "seconds": 600])
        _ = try daemon.call("event", ["device": "both", "type": "app.open", "app": .string(Self.amazon)])
        let seen = try look(daemon)
        daemon.kill(SIGKILL)
        #expect(daemon.waitForExit() == 137)
        try daemon.start()
        #expect(try look(daemon) == seen, "a restart after kill -9 shows what was there")
        let files = try FileManager.default.contentsOfDirectory(atPath: daemon.stateDirectory + "/devices")
        #expect(files.contains { $0.hasPrefix("both.") && $0.hasSuffix(".snapshot") }, "\(files)")
    }

    @Test func aScenarioInstallsSeveralAppsAndItsIntentsNameThem() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let scenario: JSONValue = [
            "name": "both", "apps": ["scrollkitty", "spendless"],
            "steps": [
                ["intent": ["name": "selectApps", "app": "scrollkitty", "args": ["apps": [.string(Self.instagram)]]]],
                ["intent": ["name": "selectApps", "app": "spendless", "args": ["apps": [.string(Self.amazon)]]]],
                ["expect": ["shielded": ["app": .string(Self.amazon), "is": true]]],
            ],
        ]
        #expect(try daemon.call("scenario.run", ["scenario": scenario])["passed"] == true)
        let unnamed: JSONValue = [
            "name": "unnamed", "apps": ["scrollkitty", "spendless"],
            "steps": [["intent": ["name": "selectApps", "args": ["apps": [.string(Self.instagram)]]]]],
        ]
        #expect(field { try daemon.call("scenario.run", ["scenario": unnamed]) } == "steps[0].intent.app")
    }
}
