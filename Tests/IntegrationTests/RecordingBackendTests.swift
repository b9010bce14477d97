import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

/// Recordings that replay (issue 38, item 11): a scenario runs on a backend of its own, so a
/// device of The Phone whose backend others shaped — a group another device made — is refused,
/// by the request the backend answered otherwise, before `record.start` or while recorded; one
/// on a backend of its own replays to the same trace and the same state. A `device.config` that
/// changes nothing leaves the session recordable, and a device with three apps replays.
@Suite struct RecordingBackendTests {
    /// `scenario` with an `expect` step per member of the device's `device.state` `app`, which
    /// it must end with.
    private func expectingState(_ scenario: JSONValue, of state: JSONValue) -> JSONValue {
        var checked = scenario.objectValue ?? [:]
        let app = state["app"]?.objectValue ?? [:]
        checked["steps"] = .array(
            (scenario["steps"]?.arrayValue ?? [])
                + app.keys.sorted().map { key in
                    let value = app[key] ?? .null
                    // `device.state`'s null counts as absent.
                    let match: JSONValue = value == .null ? ["absent": true] : ["equals": value]
                    return ["expect": ["state": .object((match.objectValue ?? [:]).merging(["path": .string("app.\(key)")]) { $1 })]]
                })
        return .object(checked)
    }

    /// Alice makes a group on the daemon's backend; Bob joins it by its code. A scenario's backend
    /// has no such group, so Bob's history is refused at the join, and Bob recorded before the
    /// join is spoiled by it: `record.stop` says so, logged at once, and drops the recording.
    @Test func aDeviceWhoseBackendOthersShapedIsRefusedByTheAnswer() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        _ = try daemon.call("device.create", ["device": "bob", "app": "thephone"])
        _ = try daemon.call("device.create", ["device": "carol", "app": "thephone", "config": ["backend": "carol"]])
        _ = try daemon.call("record.start", ["device": "bob"])
        _ = try daemon.call("record.start", ["device": "carol"])
        _ = try daemon.call("device.create", ["device": "alice", "app": "thephone"])
        let group = try daemon.call("intent", ["device": "alice", "name": "group.create", "args": ["name": "night owls"]])
        let code = try #require(group["result"]?["code"])
        _ = try daemon.call("intent", ["device": "bob", "name": "group.join", "args": ["code": code]])
        _ = try daemon.call("intent", ["device": "carol", "name": "group.create", "args": ["name": "larks"]])

        let spoiled = daemon.error(calling: "record.stop", ["device": "bob"])
        #expect(spoiled?.data == ["device": "bob", "reason": "sharedBackend", "method": "intent", "t": 0])
        #expect(spoiled?.message.contains("otherwise than a scenario's backend") == true)
        #expect(spoiled?.message.contains("config.backend") == true)
        #expect(daemon.log.contains("device bob: its recording since seq"))
        #expect(daemon.error(calling: "record.stop", ["device": "bob"])?.data?["reason"] == "notRecording")
        let before = daemon.error(calling: "record.start", ["device": "bob"])
        #expect(before?.data == ["device": "bob", "reason": "sharedBackend", "method": "intent", "t": 0])

        let stop = try daemon.call("record.stop", ["device": "carol"])
        #expect(try daemon.call("scenario.run", ["scenario": try #require(stop["scenario"])])["passed"] == true, "a backend of its own")
    }

    /// A device of The Phone with a backend of its own: signed up at launch (as `dana`: the
    /// scenario's device takes the recorded device's name), its automations installed, a group
    /// made, unlocks and locks synced across a day. Its recording replays to the same trace and
    /// the same `device.state` (`app.user`, `app.events`, `app.groups`, `app.lastSync` …).
    @Test func aDeviceWithABackendOfItsOwnReplaysToTheSameState() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let dana: JSONValue = "dana"
        _ = try daemon.call("device.create", ["device": dana, "app": "thephone", "config": ["backend": "dana"]])
        _ = try daemon.call("intent", ["device": dana, "name": "installAutomation"])
        _ = try daemon.call("intent", ["device": dana, "name": "installAutomation", "args": ["trigger": "lock"]])
        _ = try daemon.call("intent", ["device": dana, "name": "group.create", "args": ["name": "owls"]])
        _ = try daemon.call("record.start", ["device": dana])
        for _ in 0..<3 {
            _ = try daemon.call("event", ["device": dana, "type": "unlock"])
            _ = try daemon.call("clock.advance", ["device": dana, "seconds": 3600])
            _ = try daemon.call("event", ["device": dana, "type": "lock"])
            _ = try daemon.call("clock.advance", ["device": dana, "seconds": 7200])
        }
        _ = try daemon.call("intent", ["device": dana, "name": "sync"])
        let live = try daemon.trace(of: "dana")
        let state = try daemon.call("device.state", ["device": dana])
        #expect((state["app"]?["events"]?.intValue ?? 0) > 0)

        let stop = try daemon.call("record.stop", ["device": dana])
        let scenario = try #require(stop["scenario"])
        let run = try daemon.call("scenario.run", ["scenario": scenario])
        #expect(run["passed"] == true, "\(String(describing: run["failures"]))")
        #expect(run["trace"]?.arrayValue == live)
        let same = try daemon.call("scenario.run", ["scenario": expectingState(scenario, of: state)])
        #expect(same["passed"] == true, "\(String(describing: same["failures"]))")
        #expect(scenario["device"] == dana, "the scenario's device takes the recorded one's name, which The Phone signs up under")
        let unnamed = daemon.error(calling: "scenario.run", ["scenario": ["device": "", "steps": []]])
        #expect(unnamed?.code == -32005 && unnamed?.data?["field"] == "device")
    }

    /// `device.config` that leaves the config as it is (`raceDetector: false` when it is off)
    /// changes nothing: before `record.start` and while recorded, the session stays recordable.
    @Test func aConfigThatChangesNothingLeavesTheSessionRecordable() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        _ = try daemon.call("device.config", ["config": ["raceDetector": false]])
        _ = try daemon.call("event", ["type": "lock"])
        _ = try daemon.call("record.start")
        _ = try daemon.call("device.config", ["config": ["raceDetector": false, "quirks": [:]]])
        _ = try daemon.call("event", ["type": "unlock"])
        let stop = try daemon.call("record.stop")
        #expect(stop["counts"]?["history"] == 1 && stop["counts"]?["recorded"] == 1)
        #expect(try daemon.call("scenario.run", ["scenario": try #require(stop["scenario"])])["passed"] == true)
    }

    /// A device with three apps, each driven, replays to its trace event for event, passing
    /// every app's built-in invariants.
    @Test func aSessionOfThreeAppsReplays() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let tri: JSONValue = "tri"
        _ = try daemon.call("device.create", ["device": tri, "apps": ["clarity", "scrollkitty", "spendless"]])
        _ = try daemon.call("intent", ["device": tri, "app": "clarity", "name": "selectApps", "args": ["apps": ["com.burbn.instagram"]]])
        _ = try daemon.call(
            "intent", ["device": tri, "app": "scrollkitty", "name": "selectApps", "args": ["apps": ["com.zhiliaoapp.musically"]]])
        _ = try daemon.call("record.start", ["device": tri])
        _ = try daemon.call("event", ["device": tri, "type": "app.open", "app": "com.burbn.instagram"])
        _ = try daemon.call("clock.advance", ["device": tri, "seconds": 900])
        _ = try daemon.call("event", ["device": tri, "type": "app.open", "app": "com.zhiliaoapp.musically"])
        _ = try daemon.call("clock.advance", ["device": tri, "seconds": 1800])
        _ = try daemon.call("intent", ["device": tri, "app": "spendless", "name": "logItem", "args": ["name": "shoes", "price": 40]])
        let live = try daemon.trace(of: "tri")
        let scenario = try #require(daemon.call("record.stop", ["device": tri])["scenario"]?.objectValue)
        #expect(scenario["apps"] == ["clarity", "scrollkitty", "spendless"])
        // With the built-in invariants on: each app's judge its own stores (Clarity's once read
        // ScrollKitty's, and failed the replay).
        let run = try daemon.call("scenario.run", ["scenario": .object(scenario)])
        #expect(run["passed"] == true, "\(run["failure"] ?? "")")
        #expect(run["trace"]?.arrayValue == live)
    }
}
