#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

import ControlProtocol
import DaemonTestSupport
import Testing

/// Make Hay over the socket in the contract's names (docs/apps/makehay.md): the `health.sample` /
/// `health.fail` / `app.terminate` events, `device.state.app`'s fields, refusals, and a terminated
/// app with a relaunch due across `kill -9`.
@Suite struct MakeHayDaemonTests {
    static let instagram: JSONValue = "com.burbn.instagram"

    private func app(_ daemon: DaemonProcess) throws -> JSONValue {
        try #require(try daemon.call("device.state", ["device": "hay"])["app"])
    }

    @Test func theContractsNamesWorkOverTheSocket() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        _ = try daemon.call("device.create", ["device": "hay", "app": "makehay"])
        _ = try daemon.call("intent", ["device": "hay", "name": "selectApps", "args": ["apps": [Self.instagram]]])
        let state = try app(daemon)
        #expect(state.objectValue.map { Set($0.keys) } == [
            "goal", "today", "blocked", "lastEvaluation", "lastCheckedDate", "inMemory", "selectedApps",
        ])
        #expect(state["goal"] == ["kind": "steps", "target": 10_000] && state["blocked"] == true)
        let walked = try daemon.call("event", ["device": "hay", "type": "health.sample", "kind": "steps", "value": 10_000])
        #expect(walked["effects"]?.arrayValue?.map { $0["kind"] } == ["health.sample", "shield.clear"])
        #expect(try app(daemon)["lastEvaluation"]?["outcome"] == "unblocked")

        func field(_ params: JSONValue) -> String? { daemon.error(calling: "event", params)?.data?["field"]?.stringValue }
        #expect(field(["device": "hay", "type": "health.sample", "kind": "sleep", "value": 1]) == "kind")
        #expect(field(["device": "hay", "type": "health.sample", "kind": "steps", "value": 0]) == "value")
        #expect(field(["device": "hay", "type": "health.fail", "count": 0]) == "count")
        #expect(field(["device": "hay", "type": "app.terminate", "app": Self.instagram]) == "app")
        let refused = daemon.error(calling: "intent", ["device": "hay", "name": "setGoal", "args": ["kind": "steps", "target": 10_250]])
        #expect(refused?.code == -32602 && refused?.data?["field"] == "args.target")
    }

    @Test func aTerminatedAppAndItsDueRelaunchSurviveKillNine() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        _ = try daemon.call("device.create", ["device": "hay", "app": "makehay"])
        _ = try daemon.call("intent", ["device": "hay", "name": "selectApps", "args": ["apps": [Self.instagram]]])
        _ = try daemon.call("event", ["device": "hay", "type": "app.terminate", "app": "com.makehay.app"])
        _ = try daemon.call("event", ["device": "hay", "type": "health.sample", "kind": "steps", "value": 10_000])
        daemon.kill(SIGKILL)
        #expect(daemon.waitForExit() == 137)
        try daemon.start()
        #expect(try app(daemon)["inMemory"] == false)
        #expect(try daemon.call("shields.get", ["device": "hay"])["effective"]?["applications"] == [Self.instagram])
        let delivered = try daemon.call("clock.advance", ["device": "hay", "seconds": 3600])
        let kinds = delivered["effects"]?.arrayValue?.compactMap { $0["kind"]?.stringValue }.filter { $0 != "clock.advance" }
        #expect(kinds == ["app.launch", "shield.clear"])
        #expect(try app(daemon)["inMemory"] == true)
    }

    /// The seed's gap Story 8 narrows (docs/apps/makehay.md, "The gate"): a goal reached while the
    /// app is out of memory leaves the shield up until the system's hourly delivery relaunches it.
    @Test func theBackgroundGapScenarioPasses() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let run = try daemon.call("scenario.run", ["scenario": try ScenarioTests.scenario("makehay-background-gap")])
        #expect(run["passed"] == true, "\(run["failures"] ?? .null)")
        #expect(run["trace"]?.arrayValue?.contains { $0["kind"] == "app.launch" && $0["reason"] == "healthDelivery" && $0["t"] == 3600 } == true)
    }
}
