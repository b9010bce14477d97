import ControlProtocol
import DaemonTestSupport
import Testing

/// The WiFi gate and focus sessions over the socket (seed 000 tasks 1d, 2d; docs/apps/clarity.md).
@Suite struct ClarityWiFiFocusTests {
    private func gateApps(_ clarity: ClarityDriver) throws -> JSONValue {
        try clarity.shields()["stores"]?["wifiGate"]?["applications"] ?? .null
    }

    @Test func homeNetworksKeepTheSeedsLimits() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let clarity = try ClarityDriver(daemon, device: "nets")
        for ssid in ["Home", "Cabin", "Office"] { try clarity.intent("addHomeNetwork", ["ssid": .string(ssid)]) }
        #expect(clarity.refusal { try clarity.intent("addHomeNetwork", ["ssid": "Fourth"]) } == "tooManyNetworks")
        #expect(clarity.refusal { try clarity.intent("addHomeNetwork", ["ssid": "Home"]) } == "duplicateNetwork")
        #expect(try clarity.store("homeNetworkSSIDs") == ["Home", "Cabin", "Office"])
        try clarity.intent("removeHomeNetwork", ["ssid": "Cabin"])
        #expect(try clarity.store("homeNetworkSSIDs") == ["Home", "Office"])
    }

    @Test func gateShieldsAwayFromHomeAndClearsOnHomeOrWhenDisabled() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let clarity = try ClarityDriver(daemon, device: "gate")
        try clarity.intent("selectApps", ["apps": [.string(ClarityDriver.instagram)]])
        try clarity.intent("addHomeNetwork", ["ssid": "Home"])
        #expect(try gateApps(clarity) == .null, "the gate is off until enabled")
        try clarity.intent("setWiFiGate", ["enabled": true])
        #expect(try clarity.store("wifiGateEnabled") == true)
        #expect(try gateApps(clarity) == [.string(ClarityDriver.instagram)])
        try clarity.event("wifi.join", ["ssid": "Home"])
        #expect(try gateApps(clarity) == .null)
        #expect(try clarity.app()["wifiGate"]?["onHomeNetwork"] == true)
        try clarity.event("wifi.leave")
        #expect(try gateApps(clarity) == [.string(ClarityDriver.instagram)])
        try clarity.event("wifi.join", ["ssid": "Cafe"])
        #expect(try gateApps(clarity) == [.string(ClarityDriver.instagram)])
        try clarity.intent("setWiFiGate", ["enabled": false])
        #expect(try gateApps(clarity) == .null)
    }

    @Test func theGateIsCheckedEveryThirtySeconds() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let clarity = try ClarityDriver(daemon, device: "poll")
        try clarity.intent("selectApps", ["apps": [.string(ClarityDriver.instagram)]])
        try clarity.intent("addHomeNetwork", ["ssid": "Home"])
        try clarity.intent("setWiFiGate", ["enabled": true])
        try clarity.event("wifi.join", ["ssid": "Home"])
        #expect(try gateApps(clarity) == .null)
        // Home is removed behind the app's back (another process writes the App Group).
        try clarity.setStore("homeNetworkSSIDs", [])
        #expect(try gateApps(clarity) == .null)
        let checked = try clarity.advance(30)
        #expect(clarity.effects(checked, "shield.apply").first?["store"] == "wifiGate")
        #expect(try gateApps(clarity) == [.string(ClarityDriver.instagram)])
    }

    @Test func clearingTheWiFiGateNeverLiftsFrictionOrFocusShields() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let clarity = try ClarityDriver(daemon, device: "independent", config: ["frictionThresholdsMinutes": [1, 2, 3, 4, 5]])
        try clarity.intent("selectApps", ["apps": [.string(ClarityDriver.instagram)]])
        try clarity.intent("addHomeNetwork", ["ssid": "Home"])
        try clarity.event("wifi.join", ["ssid": "Home"])
        try clarity.intent("setWiFiGate", ["enabled": true])
        try clarity.event("app.open", ["app": .string(ClarityDriver.instagram)])
        try clarity.advance(120)
        #expect(try clarity.shields()["stores"]?["friction"]?["applications"] == [.string(ClarityDriver.instagram)])
        try clarity.intent("focus.start", ["minutes": 60, "whitelist": [.string(ClarityDriver.messages)]])

        try clarity.event("wifi.leave")
        #expect(try gateApps(clarity) == [.string(ClarityDriver.instagram)])
        try clarity.event("wifi.join", ["ssid": "Home"])
        let stores = try clarity.shields()["stores"]
        #expect(stores?["wifiGate"] == nil)
        #expect(stores?["friction"]?["applications"] == [.string(ClarityDriver.instagram)])
        #expect(stores?["focus"]?["applicationCategories"]?["policy"] == "all")
        #expect(try clarity.state()["shieldShown"] == true)

        try clarity.intent("setWiFiGate", ["enabled": false])
        try clarity.intent("focus.end")
        #expect(try clarity.shields()["stores"]?["friction"]?["applications"] == [.string(ClarityDriver.instagram)])
        #expect(try clarity.state()["shieldShown"] == true, "friction still shields Instagram")
    }

    @Test func strictModeDecidesWhetherTheGateCanBeOverriddenAfterThirtySeconds() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        for strict in [false, true] {
            let clarity = try ClarityDriver(daemon, device: strict ? "strict" : "lenient")
            try clarity.intent("selectApps", ["apps": [.string(ClarityDriver.instagram)]])
            try clarity.intent("setWiFiGate", ["enabled": true, "strictMode": .bool(strict)])
            try clarity.event("app.open", ["app": .string(ClarityDriver.instagram)])
            let config = try clarity.shieldConfig(ClarityDriver.instagram)
            #expect(config["title"] == "Not on home WiFi")
            #expect(config["secondaryButtonLabel"] == (strict ? .null : "I Choose to Continue"))
            try clarity.advance(10)
            let early = try clarity.event("shield.press", ["app": .string(ClarityDriver.instagram), "button": "secondary"])
            #expect(clarity.effects(early, "shield.action").first?["response"] == "defer")
            #expect(try clarity.state()["shieldShown"] == true)
            try clarity.advance(25)
            try clarity.event("shield.press", ["app": .string(ClarityDriver.instagram), "button": "secondary"])
            #expect(try clarity.state()["shieldShown"] == .bool(strict))
            #expect(try clarity.app()["wifiGate"]?["overridden"] == .bool(!strict))
            try clarity.advance(60)
            #expect(try clarity.state()["shieldShown"] == .bool(strict), "the override holds until the network changes")
            if !strict {
                try clarity.event("wifi.join", ["ssid": "Elsewhere"])
                #expect(try clarity.state()["shieldShown"] == true)
            }
        }
    }

    @Test func focusSessionShieldsAllButTheWhitelistUntilItEnds() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let clarity = try ClarityDriver(daemon, device: "focus")
        let started = try clarity.intent("focus.start", ["minutes": 25, "whitelist": [.string(ClarityDriver.messages)]])
        #expect(clarity.effects(started, "focusMode").first?["on"] == true)
        let focus = try clarity.shields()["stores"]?["focus"]
        #expect(focus?["applicationCategories"]?["except"] == [.string(ClarityDriver.messages), .string(ClarityDriver.clarity)])
        #expect(try clarity.state()["focusMode"] == true)
        #expect(try clarity.app()["focusActive"] == true)
        try clarity.event("app.open", ["app": .string(ClarityDriver.tiktok)])
        #expect(try clarity.state()["shieldShown"] == true)
        #expect(try clarity.shieldConfig(ClarityDriver.tiktok)["title"] == "Focus session in progress")
        #expect(try clarity.shieldConfig(ClarityDriver.tiktok)["secondaryButtonLabel"] == .null)
        try clarity.event("app.open", ["app": .string(ClarityDriver.messages)])
        #expect(try clarity.state()["shieldShown"] == false)
        #expect(clarity.refusal { try clarity.intent("focus.start", ["minutes": 5]) } == "focusSessionActive")

        let ended = try clarity.advance(25 * 60)
        #expect(clarity.effects(ended, "focusMode").first?["on"] == false)
        #expect(try clarity.shields()["stores"]?["focus"] == nil)
        let app = try clarity.app()
        #expect(app["focusActive"] == false)
        #expect(app["history"]?["focusSessions"] == 1)
        #expect(app["today"]?["focusMinutes"] == 25)
    }

    @Test func notificationsDuringFocusAreSilenced() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let clarity = try ClarityDriver(daemon, device: "quiet")
        try clarity.intent("selectApps", ["apps": [.string(ClarityDriver.instagram)]])
        try clarity.intent("focus.start", ["minutes": 30, "whitelist": [.string(ClarityDriver.instagram)]])
        try clarity.event("app.open", ["app": .string(ClarityDriver.instagram)])
        try clarity.advance(300)
        let notes = try daemon.call("notifications.list", ["device": "quiet"]).arrayValue ?? []
        #expect(notes.count == 1)
        #expect(notes.first?["silenced"] == true)
    }
}
