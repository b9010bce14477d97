import ControlProtocol
import DaemonTestSupport
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

/// Layers 3–5 and the contact's name on every layer's shield (seed 000 task 4g,
/// `ProsocialFrictionDescriptions`), with short thresholds.
@Suite struct FrictionLayerTextsTests {
    @Test func everyLayerHasItsTextsAndAlwaysTheContinueButton() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let clarity = try ClarityDriver(daemon, device: "layers", config: ["frictionThresholdsMinutes": [1, 2, 3, 4, 5]])
        try clarity.setUpPeople(["Mom"])
        try clarity.event("app.open", ["app": .string(ClarityDriver.instagram)])
        let expected: [(String, String)] = [
            ("Text Mom instead", "A real connection beats any feed"),
            ("What are you looking for?", "Or call someone instead of scrolling"),
            ("Call Mom — for real", "Have a real conversation"),
            ("0 texts today. 58 min scrolling.", "Type 'I choose to keep scrolling' to continue. Or connect with someone."),
        ]
        let first = try clarity.advance(60)
        #expect(
            clarity.effects(first, "notification").first?["body"]
                == "You've been on Instagram for 1 minute. Mom would love to hear from you.")
        for (layer, texts) in expected.enumerated() {
            let outcome = try clarity.advance(60)
            let shown = clarity.effects(outcome, "shield.shown").first
            #expect(shown?["title"] == .string(texts.0), "layer \(layer + 2)")
            #expect(shown?["subtitle"] == .string(texts.1), "layer \(layer + 2)")
            #expect(shown?["primaryButtonLabel"] == "Open Clarity")
            #expect(shown?["secondaryButtonLabel"] == "I Choose to Continue")
            let store = layer == 0 || layer == 2 ? "prosocialFriction" : "friction"
            #expect(try clarity.shields()["stores"]?[store]?["applications"] == [.string(ClarityDriver.instagram)])
            try clarity.event("shield.press", ["app": .string(ClarityDriver.instagram), "button": "secondary"])
            #expect(try clarity.state()["shieldShown"] == false)
        }
        #expect(try clarity.app()["products"]?.arrayValue?.map { $0["displayPrice"] } == ["$4.99", "$39.99"])
    }
}
