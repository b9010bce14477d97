#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

import ControlProtocol
import DaemonTestSupport
import Testing

/// Retention across a restart (seed 000 task 8b: cleanup at launch) and bad intent input as a
/// client sees it, over the socket. Tiers and retention themselves are tested in process
/// (ClarityTests.ClaritySubscriptionRetentionTests).
@Suite struct ClarityDaemonTests {
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
