#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

import ControlProtocol
import DaemonTestSupport
import Testing

/// ScrollKitty through the socket, in the contract's names (docs/apps/scrollkitty.md):
/// `device.create` with `app` `scrollkitty`, its intents and refusals, the fields of
/// `device.state.app`, its state across `kill -9`, and the daemon's default app set to it.
@Suite struct ScrollKittyDaemonTests {
    static let instagram = "com.burbn.instagram"
    static let apps: [JSONValue] = [.string(instagram), "com.zhiliaoapp.musically", "com.reddit.Reddit"]

    private func intent(_ daemon: DaemonProcess, _ device: String, _ name: String, _ args: JSONValue = [:]) throws -> JSONValue {
        try daemon.call("intent", ["device": .string(device), "name": .string(name), "args": args])
    }

    private func app(_ daemon: DaemonProcess, _ device: String) throws -> JSONValue {
        try #require(try daemon.call("device.state", ["device": .string(device)])["app"])
    }

    private func refusal(_ daemon: DaemonProcess, _ device: String, _ name: String, _ args: JSONValue) -> (Int, String?)? {
        let error = daemon.error(calling: "intent", ["device": .string(device), "name": .string(name), "args": args])
        return error.map { ($0.code, $0.data?["field"]?.stringValue ?? $0.data?["reason"]?.stringValue) }
    }

    @Test func theContractsNamesWorkOverTheSocket() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        _ = try daemon.call("device.create", ["device": "kitty", "app": "scrollkitty"])
        let selected = try intent(daemon, "kitty", "selectApps", ["apps": .array(Self.apps)])
        #expect(selected["result"]?["apps"]?.arrayValue?.map { $0["hp"] } == [34, 33, 33])
        let state = try app(daemon, "kitty")
        #expect(state.objectValue.map { Set($0.keys) } == [
            "apps", "totalHP", "isDead", "shieldFrequencyMinutes", "focusWindow", "inFocusWindow", "dailyLimitHours",
            "notificationsAuthorized",
        ])
        #expect(state["apps"]?.arrayValue?.first?.objectValue.map { Set($0.keys) } == [
            "app", "name", "tokenId", "hp", "maxHP", "shielded", "cooldownEndsAt",
        ])
        #expect(state["apps"]?.arrayValue?.first?["name"] == "Instagram")
        #expect(state["totalHP"] == 100 && state["notificationsAuthorized"] == true)

        #expect(refusal(daemon, "kitty", "selectApps", ["apps": []])! == (-32602, "args.apps"))
        #expect(refusal(daemon, "kitty", "setShieldFrequency", ["minutes": 5])! == (-32602, "args.minutes"))
        #expect(refusal(daemon, "kitty", "setFocusWindow", ["startHour": 24, "endHour": 1, "weekdays": [2]])! == (-32602, "args.startHour"))
        #expect(refusal(daemon, "kitty", "setDailyLimit", ["hours": 9])! == (-32602, "args.hours"))
        #expect(refusal(daemon, "kitty", "feedTheCat", [:])?.0 == -32002)
        #expect(try app(daemon, "kitty")["totalHP"] == 100, "a refused intent changes nothing")

        _ = try daemon.call("event", ["device": "kitty", "type": "app.open", "app": .string(Self.instagram)])
        let pressed = try daemon.call(
            "event", ["device": "kitty", "type": "shield.press", "app": .string(Self.instagram), "button": "secondary"])
        let lost = pressed["effects"]?.arrayValue?.first { $0["kind"] == "notification" }
        #expect(lost?["title"] == "Lost 10 HP")
        let notifications = try daemon.call("notifications.list", ["device": "kitty"]).arrayValue ?? []
        #expect(notifications.map { $0["title"] } == ["Lost 10 HP"])
    }

    @Test func itsStateSurvivesKillNine() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        _ = try daemon.call("device.create", ["device": "kitty", "app": "scrollkitty"])
        _ = try intent(daemon, "kitty", "selectApps", ["apps": .array(Self.apps)])
        _ = try daemon.call("event", ["device": "kitty", "type": "app.open", "app": .string(Self.instagram)])
        _ = try daemon.call(
            "event", ["device": "kitty", "type": "shield.press", "app": .string(Self.instagram), "button": "secondary"])
        let before = try app(daemon, "kitty")
        #expect(before["apps"]?.arrayValue?.first?["hp"] == 24)
        #expect(before["apps"]?.arrayValue?.first?["cooldownEndsAt"] == "2026-01-05T09:15:00Z")
        daemon.kill(SIGKILL)
        #expect(daemon.waitForExit() == 137)
        try daemon.start()
        #expect(try app(daemon, "kitty") == before, "HP, cooldown, shields and authorization survive kill -9")
        _ = try daemon.call("clock.advance", ["device": "kitty", "seconds": 900])
        let after = try app(daemon, "kitty")
        #expect(after["apps"]?.arrayValue?.first?["shielded"] == true && after["apps"]?.arrayValue?.first?["cooldownEndsAt"] == .null)
        let titles = (try daemon.call("notifications.list", ["device": "kitty"]).arrayValue ?? []).map { $0["title"] }
        #expect(titles == ["Lost 10 HP", "Shield Returning"], "the cooldown ends on time after the restart")
        let asked = try daemon.call("trace.get", ["device": "kitty", "kinds": ["notification.authorization"]]).arrayValue
        #expect(asked?.count == 1, "the relaunch does not ask again")
    }

    @Test func theDaemonsDefaultAppCanBeScrollKitty() throws {
        let daemon = try DaemonProcess(config: ["defaultApp": "scrollkitty"])
        defer { daemon.stop() }
        #expect(try daemon.call("device.state")["appName"] == "scrollkitty")
        _ = try daemon.call("intent", ["name": "selectApps", "args": ["apps": [.string(Self.instagram)]]])
        #expect(try daemon.call("device.state")["app"]?["totalHP"] == 100)
    }
}
