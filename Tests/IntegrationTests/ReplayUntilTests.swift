import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `scenario.replay … until` (docs/scenarios.md, "Stepping into a counterexample"): the
/// replay's device left standing at a decision, a live device that the ordinary methods inspect
/// and drive, rebuilt the same after `kill -9`; bad `until`s refused by name; `replay --step`.
@Suite struct ReplayUntilTests {
    /// The shipped race's likely counterexample (PCT seed 78, docs/clarityctl.md).
    static let token = "v2:7615bb784e7ed37c:7@28,8@30,10@31,13@30,24@27,25@32,26@33,27@30,32@34,35@33,36@35"

    static func scenario() throws -> JSONValue { try ScenarioTests.scenario(ScenarioTests.race) }

    /// Stopped before decision 10, where the story's third switch sets aside the app about to
    /// remove the pending challenge: the device's trace is the replay's up to there, its App Group
    /// holds what the counterexample had written, `device.state` names it; an event lets the held
    /// tasks go on first (the app's remove among its effects), and a restart rebuilds the
    /// device the same.
    @Test func replayUntilLeavesADeviceThatCommandsInspectAndDrive() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let scenario = try Self.scenario()
        let whole = try daemon.call("scenario.replay", ["scenario": scenario, "schedule": .string(Self.token)])
        let answer = try daemon.call(
            "scenario.replay", ["scenario": scenario, "schedule": .string(Self.token), "until": ["decision": 10]])
        let name = "clarity-stale-verification-at-d10"
        #expect(answer["device"] == .string(name))
        #expect(answer["token"] == whole["token"] && answer["story"] == whole["story"], "the replay's answer as before")
        let stop = try #require(answer["stoppedAt"])
        #expect(stop["decision"] == 10 && stop["end"] == false)
        #expect(
            stop["ready"]?.arrayValue?.contains("clarity.app (task 30): remove group.com.clarity.focus/pendingProsocialChallengeId")
                == true, "\(stop)")
        let seq = try #require(stop["seq"]?.intValue)

        let prefix = (whole["trace"]?.arrayValue ?? []).filter { ($0["seq"]?.intValue ?? 0) <= seq }
        let trace = try daemon.call("trace.get", ["device": .string(name)])
        #expect(trace.arrayValue == prefix, "the device stands where the replay stood at decision 10")
        let written = prefix.last { $0["kind"] == "store.write" && $0["key"] == "pendingProsocialChallengeId" }?["value"]
        #expect(written != nil)
        #expect(try daemon.call("store.get", ["device": .string(name), "key": "pendingProsocialChallengeId"])["value"] == written)
        #expect(try daemon.call("device.state", ["device": .string(name)])["device"] == .string(name))
        #expect(try daemon.call("trace.get", ["device": .string(name)]) == trace, "a look lets no held task go on")

        let event = try daemon.call("event", ["device": .string(name), "type": "lock"])
        let effects = event["effects"]?.arrayValue ?? []
        #expect(
            effects.contains { $0["kind"] == "store.remove" && $0["actor"] == "clarity.app" && $0["key"] == "pendingProsocialChallengeId" },
            "the held app goes on to its remove: \(effects)")
        #expect(effects.last?["kind"] == "app.state", "then the lock")
        let before = try daemon.call("trace.get", ["device": .string(name)])

        daemon.kill(SIGKILL)
        daemon.waitForExit()
        try daemon.start()
        #expect(try daemon.call("trace.get", ["device": .string(name)]) == before, "rebuilt from its replay and journal")
    }

    /// A `replayed` header that is valid JSON but wrong — a decision the replay never reaches, a
    /// scenario its token was not found for — cannot be replayed: the device's files are moved
    /// aside, saying why, and the daemon serves on.
    @Test func aDamagedReplayedHeaderIsMovedAside() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let scenario = try Self.scenario()
        let damages: [(String, (inout [String: JSONValue]) -> Void, String)] = [
            ("far", { $0["decision"] = 999 }, "before decision 999"),
            ("other", { origin in
                guard case .object(var scenario)? = origin["scenario"] else { return }
                scenario["name"] = "renamed"
                origin["scenario"] = .object(scenario)
            }, "its token was found for another scenario"),
        ]
        for (name, _, _) in damages {
            _ = try daemon.call(
                "scenario.replay",
                ["scenario": scenario, "schedule": .string(Self.token), "until": ["decision": 10], "device": .string(name)])
        }
        daemon.kill(SIGKILL)
        daemon.waitForExit()
        let devices = URL(fileURLWithPath: daemon.stateDirectory).appendingPathComponent("devices")
        for (name, damage, _) in damages {
            let file = devices.appendingPathComponent("\(name).journal")
            var lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
            var header = try #require(try JSONWire.decode(JSONValue.self, from: Data(lines[0].utf8)).objectValue)
            var origin = try #require(header["replayed"]?.objectValue)
            damage(&origin)
            header["replayed"] = .object(origin)
            lines[0] = String(decoding: try JSONWire.encode(JSONValue.object(header)), as: UTF8.self)
            try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        }
        try daemon.start()
        for (name, _, why) in damages {
            #expect(daemon.waitForLog("device \(name) could not be restored"), "\(name)")
            #expect(daemon.waitForLog(why), "\(why)")
        }
        #expect(try daemon.call("device.list").arrayValue?.compactMap { $0["name"]?.stringValue } == ["default"])
        let aside = try FileManager.default.contentsOfDirectory(atPath: devices.path).filter { $0.contains(".corrupt-") }
        #expect(aside.count == 2, "\(aside)")
    }

    /// Every bad `until` or `device` is -32602 naming the field (a name taken: -32001), nothing is
    /// left behind, and the daemon serves on.
    @Test func aBadUntilIsRefusedByName() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let scenario = try Self.scenario()
        let base: [String: JSONValue] = ["scenario": scenario, "schedule": .string(Self.token)]
        let cases: [(String, [String: JSONValue], Int, String?)] = [
            ("scenario.replay", ["until": ["decision": 47]], -32602, "until.decision"),
            ("scenario.replay", ["until": ["decision": -1]], -32602, "until.decision"),
            ("scenario.replay", ["until": ["seq": 10_000]], -32602, "until.seq"),
            ("scenario.replay", ["until": ["decision": 1, "seq": 2]], -32602, "until"),
            ("scenario.replay", ["until": [:]], -32602, "until"),
            ("scenario.replay", ["until": "d7"], -32602, "until"),
            ("scenario.replay", ["until": ["decision": 1], "device": "no spaces"], -32602, "device"),
            ("scenario.replay", ["until": ["decision": 1], "device": "default"], -32001, nil),
            ("scenario.run", ["until": ["decision": 1]], -32602, "until"),
        ]
        for (method, extra, code, field) in cases {
            let error = daemon.error(calling: method, .object(base.merging(extra) { _, new in new }))
            #expect(error?.code == code, "\(extra)")
            if let field { #expect(error?.data?["field"]?.stringValue == field, "\(String(describing: error))") }
        }
        #expect(try daemon.call("device.list").arrayValue?.count == 1, "no device left behind")
        let end = try daemon.call("scenario.replay", .object(base.merging(["until": ["decision": 46]]) { _, new in new }))
        #expect(end["device"] == "clarity-stale-verification-at-end" && end["stoppedAt"]?["end"] == true)
    }

    /// `clarityctl replay --step`, fed commands on a pipe: each decision told with who runs
    /// next, the device moved a decision on at each `n`, and left standing at `q`.
    @Test func replayStepWalksADecisionAtATime() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let commands = daemon.directory.appendingPathComponent("commands")
        try Data("n\n\nq\n".utf8).write(to: commands)
        let output = daemon.directory.appendingPathComponent("out")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", "exec \"$0\" \"$@\" < \"\(commands.path)\" > \"\(output.path)\" 2>/dev/null", BuildProducts.executable("clarityctl").path,
            "--socket", daemon.socketPath, "replay", ScenarioTests.path(ScenarioTests.race), "--schedule", Self.token, "--step",
        ]
        let child = ChildProcess(process)
        try child.run()
        #expect(child.wait(timeout: 120 * TestTimeouts.scale) == 1, "the schedule fails, as replay says")
        let text = try String(contentsOf: output, encoding: .utf8)
        // A replay traces the main app's reads: one comes between decisions 1 and 2.
        for (decision, seq) in [(0, 24), (1, 24), (2, 25)] {
            #expect(text.contains("decision \(decision) of 46, after seq \(seq); next: clarity.app (task "), "\(text)")
        }
        #expect(!text.contains("decision 3 of 46"))
        #expect(text.contains("device clarity-stale-verification-at-d2 stands here"))
        let names = try daemon.call("device.list").arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        #expect(names == ["clarity-stale-verification-at-d2", "default"], "each step replaced the device; q left it")
    }
}
