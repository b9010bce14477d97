import ControlProtocol
import Testing

/// Clarity's progressive friction, driven as a user would: clarityctl against a real clarityd.
@Suite struct FrictionPathTests {
    static let instagram = "com.burbn.instagram"

    @Test func frictionLayersNotifyThenShieldAndContinueLetsTheUserIn() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let select = daemon.runCtl(["intent", "selectApps", "apps=[\"\(Self.instagram)\"]"])
        #expect(select.status == 0, "\(select.stderr)")

        #expect(daemon.runCtl(["event", "app.open", "--app", Self.instagram]).status == 0)
        let five = try daemon.call("clock.advance", ["seconds": 300])
        let notification = five["effects"]?.arrayValue?.first { $0["kind"] == "notification" }
        #expect(notification?["title"] == "Awareness Nudge")
        #expect(notification?["body"] == "You've been on Instagram for 5 minutes.")
        #expect(try daemon.call("shields.get")["effective"]?["applications"] == [])

        let ten = daemon.runCtl(["advance", "5m"])
        #expect(ten.status == 0)
        #expect(ten.stdout.contains("shield.shown"))
        #expect(ten.stdout.contains("Text someone instead"))

        let config = try daemon.call("shield.config", ["app": .string(Self.instagram)])
        #expect(config["title"] == "Text someone instead")
        #expect(config["subtitle"] == "A real connection beats any feed")
        #expect(config["primaryButtonLabel"] == "Open Clarity")
        #expect(config["secondaryButtonLabel"] == "I Choose to Continue")
        #expect(config["source"] == "extension")
        #expect(try daemon.call("device.state")["shieldShown"] == true)
        #expect(try daemon.call("store.get", ["key": "frictionLevel"])["value"] == 2)

        let press = try daemon.call("event", ["type": "shield.press", "app": .string(Self.instagram), "button": "secondary"])
        let action = press["effects"]?.arrayValue?.first { $0["kind"] == "shield.action" }
        #expect(action?["response"] == "none")
        let state = try daemon.call("device.state")
        #expect(state["shieldShown"] == false)
        #expect(state["foregroundApp"] == .string(Self.instagram))

        let fifteen = try daemon.call("clock.advance", ["seconds": 300])
        let shown = fifteen["effects"]?.arrayValue?.first { $0["kind"] == "shield.shown" }
        #expect(shown?["title"] == "What are you looking for?")

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
