import ControlProtocol
import DaemonTestSupport
import Testing

/// The Phone over the socket in the contract's names (docs/apps/thephone.md): a device signs up at
/// creation, its intents and `device.state.app`'s fields, an iOS-only intent unknown on Android,
/// and the shipped scenario of the seed's consequence (unlock-only automation ⇒ no score).
@Suite struct ThePhoneDaemonTests {
    @Test func theContractsNamesWorkOverTheSocket() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        _ = try daemon.call("device.create", ["device": "alice", "app": "thephone"])
        _ = try daemon.call("intent", ["device": "alice", "name": "installAutomation", "args": [:]])
        let recorded = try daemon.call("event", ["device": "alice", "type": "unlock"])
        #expect(recorded["effects"]?.arrayValue?.map { $0["kind"] } == ["app.state"], "already unlocked: no automation")
        _ = try daemon.call("event", ["device": "alice", "type": "lock"])
        let unlocked = try daemon.call("event", ["device": "alice", "type": "unlock"])
        #expect(unlocked["effects"]?.arrayValue?.map { $0["kind"] } == ["app.state", "automation", "app", "network.request"])
        let state = try #require(try daemon.call("device.state", ["device": "alice"])["app"])
        #expect(state.objectValue.map { Set($0.keys) } == [
            "user", "automations", "setup", "trackingHealth", "lastUnlockAt", "events", "unsynced", "lastSync", "week", "groups",
            "temptations",
        ])
        #expect(state["user"] == "alice" && state["events"] == 1 && state["unsynced"] == 0)
        #expect(state["setup"] == ["state": "notStarted"])
        let refused = daemon.error(calling: "intent", ["device": "alice", "name": "setTemptations", "args": ["intensity": "extreme"]])
        #expect(refused?.code == -32602 && refused?.data?["field"] == "args.intensity")

        _ = try daemon.call("device.create", ["device": "bob", "app": "thephone", "config": ["platform": "android"]])
        let unknown = daemon.error(calling: "intent", ["device": "bob", "name": "setup.begin", "args": [:]])
        #expect(unknown?.code == -32002)
        let android = try #require(try daemon.call("device.state", ["device": "bob"])["app"])
        #expect(android["automations"] == nil && android["setup"] == nil && android["user"] == "bob")
    }

    /// docs/apps/thephone.md, "How unlocks arrive on iOS": with the seed's `unlock` automation
    /// alone every score is 0; the `lock` automation (project choice) makes a 30-minute lock score
    /// 34.01.
    @Test func theUnlockOnlyScenarioPasses() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let run = try daemon.call("scenario.run", ["scenario": try ScenarioTests.scenario("thephone-unlock-only")])
        #expect(run["passed"] == true, "\(run["failures"] ?? .null)")
    }
}
