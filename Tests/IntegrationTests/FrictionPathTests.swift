import ControlProtocol
import DaemonTestSupport
import Testing

/// Clarity's progressive friction, driven as a user would: clarityctl against a real clarityd,
/// and the trace a client reads.
@Suite struct FrictionPathTests {
    static let instagram = "com.burbn.instagram"

    /// A user's session with clarityctl: every command succeeds and prints what happened. What
    /// the app does at each layer is tested in process (ClarityTests.ClarityFrictionTests).
    @Test func clarityctlDrivesTheFrictionPathAndPrintsWhatHappened() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let select = daemon.runCtl(["intent", "selectApps", "apps=[\"\(Self.instagram)\"]"])
        #expect(select.status == 0, "\(select.stderr)")
        #expect(daemon.runCtl(["event", "app.open", "--app", Self.instagram]).status == 0)

        let five = daemon.runCtl(["advance", "5m"])
        #expect(five.status == 0)
        #expect(five.stdout.contains("notification") && five.stdout.contains("Awareness Nudge"))
        let ten = daemon.runCtl(["advance", "5m"])
        #expect(ten.status == 0)
        #expect(ten.stdout.contains("shield.shown"))
        #expect(ten.stdout.contains("Text someone instead"))
        let config = try daemon.call("shield.config", ["app": .string(Self.instagram)])
        #expect(config["title"] == "Text someone instead")
        #expect(config["secondaryButtonLabel"] == "I Choose to Continue")
        #expect(config["source"] == "extension")

        let press = daemon.runCtl(["event", "shield.press", "--app", Self.instagram, "--button", "secondary"])
        #expect(press.status == 0, "\(press.stderr)")
        #expect(press.stdout.contains("shield.action") && press.stdout.contains("response=none"))

        let notifications = daemon.runCtl(["notifications"])
        #expect(notifications.stdout.contains("You've been on Instagram for 5 minutes."))
    }

    @Test func sameScriptOnTwoDevicesGivesByteIdenticalTraces() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        var traces: [String] = []
        for name in ["a", "b"] {
            let device: JSONValue = .string(name)
            _ = try daemon.call("device.create", ["device": device, "app": "clarity", "seed": 7])
            _ = try daemon.call("intent", ["device": device, "name": "selectApps", "args": ["apps": [.string(Self.instagram)]]])
            _ = try daemon.call("event", ["device": device, "type": "app.open", "app": .string(Self.instagram)])
            _ = try daemon.call("clock.advance", ["device": device, "seconds": 700])
            _ = try daemon.call("event", ["device": device, "type": "shield.press", "app": .string(Self.instagram), "button": "secondary"])
            _ = try daemon.call("clock.advance", ["device": device, "seconds": 86_400])
            let trace = try daemon.call("trace.get", ["device": device])
            #expect((trace.arrayValue?.count ?? 0) > 30)
            traces.append(try JSONWire.encodeString(trace))
        }
        #expect(traces[0] == traces[1])
    }
}
