#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

import ControlProtocol
import DaemonTestSupport
import Testing

/// Subscription tiers, retention and bad input over the socket (seed 000 tasks 8, 9).
@Suite struct ClaritySubscriptionRetentionTests {
    @Test func trialThenFreeTierLimitsThenStoreKitTransactions() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let clarity = try ClarityDriver(daemon, device: "tiers")
        #expect(try clarity.app()["subscription"] == "trial")
        try clarity.intent("selectApps", ["apps": [.string(ClarityDriver.instagram), .string(ClarityDriver.tiktok)]])
        #expect(try clarity.store("isSubscribed") == true)

        try clarity.advance(7 * 86_400)
        #expect(try clarity.app()["subscription"] == "none")
        #expect(try clarity.store("isSubscribed") == false)
        let twoApps: [String: JSONValue] = ["apps": [.string(ClarityDriver.instagram), .string(ClarityDriver.tiktok)]]
        #expect(clarity.refusal { try clarity.intent("selectApps", twoApps) } == "subscriptionRequired")
        #expect(clarity.refusal { try clarity.intent("setWiFiGate", ["enabled": true]) } == "subscriptionRequired")
        #expect(clarity.refusal { try clarity.intent("setProsocial", ["enabled": true]) } == "subscriptionRequired")
        try clarity.intent("focus.start", ["minutes": 10])
        try clarity.intent("focus.end")
        #expect(clarity.refusal { try clarity.intent("focus.start", ["minutes": 10]) } == "subscriptionRequired")

        #expect(clarity.refusal { try clarity.event("storekit.purchase", ["product": "com.clarity.focus.lifetime"]) } == "productNotFound")
        try clarity.event("storekit.purchase", ["product": "com.clarity.focus.monthly"])
        #expect(try clarity.app()["subscription"] == "monthly")
        try clarity.intent("selectApps", twoApps)
        try clarity.intent("focus.start", ["minutes": 10])
        try clarity.intent("focus.end")
        try clarity.event("storekit.purchase", ["product": "com.clarity.focus.yearly"])
        #expect(try clarity.app()["subscription"] == "yearly")
        try clarity.event("storekit.refund", ["product": "com.clarity.focus.yearly"])
        #expect(try clarity.app()["subscription"] == "none")
        #expect(try clarity.intent("restorePurchases")["result"]?["subscription"] == "none")
        #expect(clarity.refusal { try clarity.event("storekit.expire", ["product": "com.clarity.focus.monthly"]) } == "noActiveTransaction")
    }

    @Test func freeTierStopsFrictionAtLayerTwo() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let clarity = try ClarityDriver(daemon, device: "free", config: ["frictionThresholdsMinutes": [1, 2, 3, 4, 5]])
        try clarity.advance(8 * 86_400)
        try clarity.intent("selectApps", ["apps": [.string(ClarityDriver.instagram)]])
        try clarity.event("app.open", ["app": .string(ClarityDriver.instagram)])
        try clarity.advance(120)
        #expect(try clarity.store("frictionLevel") == 2)
        try clarity.event("shield.press", ["app": .string(ClarityDriver.instagram), "button": "secondary"])
        let later = try clarity.advance(600)
        #expect(clarity.effects(later, "shield.shown").isEmpty)
        #expect(try clarity.store("frictionLevel") == 2)

        try clarity.event("storekit.purchase", ["product": "com.clarity.focus.monthly"])
        try clarity.event("lock")
        try clarity.advance(86_400)
        try clarity.event("unlock")
        try clarity.event("app.open", ["app": .string(ClarityDriver.instagram)])
        try clarity.advance(120)
        try clarity.event("shield.press", ["app": .string(ClarityDriver.instagram), "button": "secondary"])
        try clarity.advance(60)
        #expect(try clarity.store("frictionLevel") == 3)
    }

    @Test func oldDataIsCleanedUpAfterThirtyDaysAndSnapshotsAfterNinety() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let clarity = try ClarityDriver(daemon, device: "retention")
        try clarity.setUpPeople(["Mom"])
        _ = try clarity.challengeAtLayer(4)
        try clarity.intent("challenge.open")
        try clarity.event("call.dial")
        try clarity.event("call.connect")
        try clarity.advance(90)
        try clarity.event("call.end")
        try clarity.intent("logMood", ["mood": 4])
        try clarity.intent("focus.start", ["minutes": 15])
        try clarity.advance(15 * 60)
        var history = try clarity.app()["history"]
        #expect(history?["challenges"] == 1)
        #expect(history?["connectionLogs"] == 1)
        #expect(history?["focusSessions"] == 1)
        #expect(history?["moodEntries"] == 1)

        try clarity.advance(31 * 86_400)
        let app = try clarity.app()
        history = app["history"]
        #expect(history?["challenges"] == 0)
        #expect(history?["connectionLogs"] == 0)
        #expect(history?["focusSessions"] == 0)
        #expect(history?["moodEntries"] == 0)
        #expect((history?["snapshots"]?.intValue ?? 0) >= 30)
        #expect(app["challenge"] == .null)
        #expect(app["xp"] == 25, "XP totals are kept")

        try clarity.advance(60 * 86_400)
        let snapshots = try clarity.app()["history"]?["snapshots"]?.intValue ?? 0
        #expect(snapshots >= 85 && snapshots <= 91, "snapshots older than 90 days are gone: \(snapshots)")
    }

    @Test func retentionRunsAtLaunchAfterARestart() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let clarity = try ClarityDriver(daemon, device: "relaunch")
        try clarity.intent("logMood", ["mood": 3])
        try clarity.advance(29 * 86_400)
        #expect(try clarity.app()["history"]?["moodEntries"] == 1)
        daemon.kill(SIGKILL)
        #expect(daemon.waitForExit() == 137)
        try daemon.start()
        #expect(try clarity.app()["history"]?["moodEntries"] == 1, "the store survives kill -9")
        try clarity.advance(2 * 86_400)
        #expect(try clarity.app()["history"]?["moodEntries"] == 0)
    }

    @Test func badIntentInputGetsClearErrorsAndLosesNothing() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let clarity = try ClarityDriver(daemon, device: "bad")
        try clarity.setUpPeople(["Mom"])
        func code(_ body: () throws -> JSONValue) -> (Int, String?)? {
            do {
                _ = try body()
                return nil
            } catch let error as RPCError {
                return (error.code, error.data?["field"]?.stringValue ?? error.data?["reason"]?.stringValue)
            } catch {
                return nil
            }
        }
        #expect(code { try clarity.intent("launchRockets") }?.0 == -32002)
        #expect(code { try clarity.intent("setProsocial") }! == (-32602, "args.enabled"))
        #expect(code { try clarity.intent("setProsocial", ["enabled": "yes"]) }! == (-32602, "args.enabled"))
        #expect(code { try clarity.intent("focus.start", ["minutes": 0]) }! == (-32602, "args.minutes"))
        #expect(code { try clarity.intent("logMood", ["mood": 9]) }! == (-32602, "args.mood"))
        #expect(code { try clarity.intent("addHomeNetwork", ["ssid": 5]) }! == (-32602, "args.ssid"))
        #expect(code { try clarity.intent("challenge.skip") }! == (-32003, "noChallenge"))
        #expect(code { try clarity.intent("focus.end") }! == (-32003, "noFocusSession"))
        let app = try clarity.app()
        #expect(app["importantContacts"]?.arrayValue?.count == 1)
        #expect(app["shieldedApps"] == [.string(ClarityDriver.instagram)])
        #expect(app["prosocialEnabled"] == true)
    }
}
