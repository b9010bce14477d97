import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

/// Scenarios over the socket (docs/scenarios.md): validation before anything runs, fresh worlds,
/// expectations and invariants, exploration finding the seed's own race, and replays that are
/// byte for byte the same, in one daemon and across two.
@Suite struct ScenarioTests {
    static func scenario(_ file: String) throws -> JSONValue {
        try JSONWire.decode(JSONValue.self, from: Data(contentsOf: URL(fileURLWithPath: path(file))))
    }

    /// The path of a shipped scenario, `config/scenarios/<file>.json`.
    static func path(_ file: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../config/scenarios/\(file).json").standardizedFileURL.path
    }

    static let race = "clarity-stale-verification"
    static let fixed = "clarity-stale-verification-fixed"

    /// A call that may take long (an exploration): answered on a connection that waits.
    private func slowCall(_ daemon: DaemonProcess, _ method: String, _ params: JSONValue) throws -> JSONValue {
        let connection = try daemon.connect(receiveTimeout: 300)
        let request: JSONValue = ["jsonrpc": "2.0", "id": 1, "method": .string(method), "params": params]
        try connection.send(String(decoding: try JSONWire.encode(request), as: UTF8.self) + "\n")
        let line = try #require(try connection.readLine())
        let answer = try JSONWire.decode(JSONValue.self, from: Data(line.utf8))
        return try #require(answer["result"], "\(line)")
    }

    private func withSteps(_ steps: [JSONValue], _ extra: [String: JSONValue] = [:]) -> JSONValue {
        .object(["name": "t", "app": "clarity", "steps": .array(steps)].merging(extra) { _, new in new })
    }

    /// A bad scenario is refused with -32005 naming the step, and nothing runs.
    @Test func aScenarioWithABadStepIsRefusedNamingIt() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let before = try daemon.call("trace.get")
        let cases: [(JSONValue, String)] = [
            (withSteps([["advance": 1], ["advance": 2], ["event": ["type": "app.teleport"]]]), "steps[2].event.type"),
            (withSteps([["advance": 1, "event": ["type": "lock"]]]), "steps[0]"),
            (withSteps([["intent": ["name": "challenge.fly", "args": [:]]]]), "steps[0].intent.name"),
            (withSteps([["intent": ["name": "setProsocial", "args": ["enable": true]]]]), "steps[0].intent.args.enable"),
            (withSteps([["advance": -5]]), "steps[0].advance"),
            (withSteps([["parallel": [[["expect": ["shielded": ["app": "x", "is": true]]]]]]]), "steps[0].parallel[0][0].expect"),
            (withSteps([["expect": ["store": ["key": "k", "equals": 1, "absent": true]]]]), "steps[0].expect.store"),
            (withSteps([["expect": ["state": ["path": "", "absent": true]]]]), "steps[0].expect.state.path"),
            (withSteps([["expect": ["state": ["path": "app..xp", "equals": 1]]]]), "steps[0].expect.state.path"),
            (withSteps([], ["timezone": "Mars/Olympus_Mons"]), "timezone"),
            (withSteps([], ["app": "angrybirds"]), "app"),
            (withSteps([], ["config": ["quirks": ["fastThresholds": true]]]), "config.quirks.fastThresholds"),
            (withSteps([], ["stepz": []]), "stepz"),
            (withSteps([["parallel": [[["event": ["type": "lock"], "fails": ["refused": "x"]]]]]]), "steps[0].parallel[0][0].fails"),
            (withSteps([["expect": ["shielded": ["app": "x", "is": true]], "fails": ["refused": "x"]]]), "steps[0].fails"),
            (withSteps([["event": ["type": "lock"], "fails": [:]]]), "steps[0].fails"),
            (withSteps([["event": ["type": "lock"], "fails": ["refused": ""]]]), "steps[0].fails.refused"),
            (withSteps([["event": ["type": "lock"], "fails": ["refused": "x", "invalidArgument": "y"]]]), "steps[0].fails"),
            (withSteps([], ["faults": ["jetsam", "meteor"]]), "faults[1]"),
            (withSteps([], ["faults": ["jetsam", "jetsam"]]), "faults[1]"),
        ]
        for (scenario, field) in cases {
            let error = daemon.error(calling: "scenario.run", ["scenario": scenario])
            #expect(error?.code == -32005, "\(field)")
            #expect(error?.data?["field"]?.stringValue == field, "\(String(describing: error?.data))")
        }
        #expect(try daemon.call("trace.get") == before, "no scenario touched the user's device")
        #expect(try daemon.call("device.list").arrayValue?.count == 1)
    }

    /// The methods' own params are -32602 by name, the scenario's quirks checked as a device's are.
    @Test func badScheduleParamsAreRefusedByName() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let scenario = withSteps([])
        let cases: [(String, JSONValue, String)] = [
            ("scenario.replay", ["scenario": scenario, "schedule": [], "quirks": ["fastThresholds": true]], "quirks.fastThresholds"),
            ("scenario.replay", ["scenario": scenario, "strategy": "pct", "seed": 1, "depth": 11], "depth"),
            ("scenario.replay", ["scenario": scenario, "schedule": [0, -1]], "schedule[1]"),
            ("scenario.explore", ["scenario": scenario, "depth": 0], "depth"),
            ("scenario.explore", ["scenario": scenario, "shard": "2/2"], "shard"),
            ("scenario.explore", ["scenario": scenario, "strategy": "fifo"], "strategy"),
        ]
        for (method, params, field) in cases {
            let error = daemon.error(calling: method, params)
            #expect(error?.code == -32602, "\(field)")
            #expect(error?.data?["field"]?.stringValue == field)
        }
    }

    /// The seed's race (task 2c): PCT finds it within 1,000 schedules; the failure names the
    /// invariant, seed and build; replaying it gives the same trace, byte for byte, every time,
    /// from its schedule and from its seed. Schedule 7 fails first but needs a stall; the
    /// report shows the likely direction (schedule 78, one short preemption) first (issue 41).
    @Test func pctFindsTheStaleVerificationAndItsReplayIsByteIdentical() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let scenario = try Self.scenario(Self.race)
        let report = try slowCall(
            daemon, "scenario.explore", ["scenario": scenario, "strategy": "pct", "schedules": 1000, "seedStart": 0])
        #expect(report["failed"] == 14)
        #expect(report["failures"]?.arrayValue?.map { $0["plausibility"] } == ["likely", "needs a stall"])
        let failure = try #require(report["failures"]?.arrayValue?.first)
        #expect(failure["lessPlausibleSeen"] == 12)
        #expect(failure["invariant"] == "challengeVerifiedByTexting")
        #expect(failure["message"]?.stringValue?.contains("0.0 s of it since it was issued") == true)
        #expect(failure["strategy"] == "pct" && failure["depth"] == 3)
        #expect(failure["build"]?["compiler"]?.stringValue?.hasPrefix("swift-") == true)
        #expect(failure["build"]?["configuration"] != nil && failure["build"]?["version"] != nil)
        let schedule = try #require(failure["schedule"])
        #expect(schedule.stringValue?.hasPrefix("v2:") == true, "a token to paste")
        #expect(failure["preemptions"] == 1, "the likely direction needs one switch, within a scheduler quantum")
        #expect(failure["story"]?.arrayValue?.contains { $0.stringValue?.hasPrefix("⇄ decision") == true } == true)

        let replay = #"{"jsonrpc":"2.0","id":7,"method":"scenario.replay","params":"#
            + String(decoding: try JSONWire.encode(JSONValue.object(["scenario": scenario, "schedule": schedule])), as: UTF8.self)
            + "}"
        let first = try #require(daemon.sendRaw(line: replay, timeout: 60))
        let answer = try JSONWire.decode(JSONValue.self, from: Data(first.utf8))
        #expect(answer["result"]?["passed"] == false)
        #expect(answer["result"]?["failures"]?.arrayValue?.first?["invariant"] == "challengeVerifiedByTexting")
        #expect(answer["result"]?["divergence"] == nil)
        for _ in 0..<3 { #expect(daemon.sendRaw(line: replay, timeout: 60) == first) }

        let bySeed = try daemon.call(
            "scenario.replay",
            ["scenario": scenario, "strategy": "pct", "seed": failure["seed"]!, "depth": 3,
             "expectedDecisions": failure["expectedDecisions"]!])
        #expect(bySeed["failures"]?.arrayValue?.first?["invariant"] == "challengeVerifiedByTexting")

        let exported = try slowCall(
            daemon, "scenario.replay", ["scenario": scenario, "schedule": schedule, "traceFormat": "perfetto"])
        let events = exported["perfetto"]?["traceEvents"]?.arrayValue ?? []
        #expect(events.contains { $0["ph"] == "M" && $0["args"]?["name"]?.stringValue?.hasPrefix("clarity.monitor #") == true })
        #expect(events.contains { $0["ph"] == "s" } && events.contains { $0["ph"] == "f" })
        #expect(events.contains { $0["name"] == "eventDidReachThreshold" && $0["ph"] == "X" })
        let marks = events.filter { $0["cat"] == "schedule" }.compactMap { $0["name"]?.stringValue }
        let switches = (exported["story"]?.arrayValue ?? []).compactMap(\.stringValue).filter { $0.hasPrefix("⇄ decision") }
        #expect(!marks.isEmpty && marks == switches, "each switch of the story is marked on the timeline")

        let other = try DaemonProcess()
        defer { other.stop() }
        #expect(other.sendRaw(line: replay, timeout: 60) == first, "another process replays it byte for byte")
    }

    /// The fix (`verificationNamesChallenge`) survives the same exploration. (10,000 schedules
    /// in release: scripts/explore-bench.sh.)
    @Test func theFixedVariantIsNotFlagged() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let report = try slowCall(
            daemon, "scenario.explore", ["scenario": try Self.scenario(Self.fixed), "strategy": "pct", "schedules": 1000])
        #expect(report["failed"] == 0)
        #expect(report["schedules"] == 1000)
        let random = try slowCall(
            daemon, "scenario.explore", ["scenario": try Self.scenario(Self.fixed), "strategy": "random", "schedules": 300])
        #expect(random["failed"] == 0)
    }

    /// Swarm mode switches a seeded subset of quirks on per schedule; a failure names them, and
    /// replaying with them reproduces it (without them, it passes). Here the scenario's own
    /// assumptions break: with `emptyDefaultsBeforeFirstUnlock` no friction layer is reached.
    @Test func aSwarmFailureNamesItsQuirksAndReplaysWithThem() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let scenario = try Self.scenario(Self.fixed)
        let report = try slowCall(
            daemon, "scenario.explore", ["scenario": scenario, "strategy": "random", "schedules": 50, "swarm": true])
        let failure = try #require(report["failures"]?.arrayValue?.first)
        let quirks = try #require(failure["quirks"]?.objectValue)
        #expect(!quirks.isEmpty)
        let again = try slowCall(
            daemon, "scenario.replay", ["scenario": scenario, "schedule": failure["schedule"]!, "quirks": .object(quirks)])
        #expect(again["failures"]?.arrayValue?.first?["message"] == failure["message"])
        #expect(again["quirks"] == .object(quirks))
        let plain = try slowCall(daemon, "scenario.replay", ["scenario": scenario, "schedule": failure["schedule"]!])
        #expect(plain["passed"] == true)
    }

    /// Expectations and invariants report the step, the condition and what was found.
    @Test func expectationsAndInvariantsNameWhatBroke() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let steps: [JSONValue] = [
            ["intent": ["name": "selectApps", "args": ["apps": ["com.burbn.instagram"]]]],
            ["event": ["type": "app.open", "app": "com.burbn.instagram"]],
            ["advance": 300],
            ["expect": ["store": ["key": "frictionLevel", "equals": 1]]],
            ["expect": ["notification": ["titleContains": "Awareness", "count": 1]]],
            ["expect": ["shielded": ["app": "com.burbn.instagram", "is": false]]],
            ["expect": ["state": ["path": "foregroundApp", "equals": "com.burbn.instagram"]]],
            ["advance": 300],
            ["expect": ["shielded": ["app": "com.burbn.instagram", "is": false]]],
        ]
        let run = try daemon.call("scenario.run", ["scenario": withSteps(steps)])
        #expect(run["passed"] == false)
        #expect(run["failures"]?.arrayValue?.first?["step"] == "steps[8]")
        #expect(run["failures"]?.arrayValue?.first?["message"] == "expected com.burbn.instagram not shielded: it is")
        #expect(run["strategy"] == "fifo")

        let invariant = try daemon.call(
            "scenario.run",
            ["scenario": withSteps(Array(steps.prefix(3)), ["invariants": [["store": ["key": "frictionLevel", "in": [0]]]]])])
        #expect(invariant["failures"]?.arrayValue?.first?["invariant"] == "invariants[0]")
        #expect(invariant["failures"]?.arrayValue?.first?["step"] == "steps[2]")
        #expect(invariant["failures"]?.arrayValue?.first?["message"] == "invariant broken: store frictionLevel in [0]: got 1")
        let objects = try daemon.call(
            "scenario.run",
            ["scenario": withSteps([["expect": ["store": ["key": "absentKey", "equals": ["z": 1, "a": 2, "m": 3, "b": 4]]]]])])
        #expect(objects["failures"]?.arrayValue?.first?["message"] == #"expected store absentKey equals {"a":2,"b":4,"m":3,"z":1}: got absent"#)
        let passing = try daemon.call("scenario.run", ["scenario": withSteps(Array(steps.prefix(7)))])
        #expect(passing["passed"] == true)
        #expect(passing["failures"] == [])
    }

    /// Two daemon processes run a scenario with several apps shielded to the same bytes (Sets
    /// are encoded sorted, usage summed in order: issue 8, item 4).
    @Test func twoProcessesRunAScenarioWithSeveralShieldsToTheSameBytes() throws {
        let apps: [JSONValue] = ["com.zhiliaoapp.musically", "com.burbn.instagram", "com.google.ios.youtube", "com.atebits.Tweetie2"]
        let scenario = withSteps([
            ["intent": ["name": "selectApps", "args": ["apps": .array(apps)]]],
            ["event": ["type": "app.open", "app": "com.burbn.instagram"]],
            ["advance": 900],
            ["parallel": [[["event": ["type": "app.open", "app": "com.google.ios.youtube"]], ["advance": 60]],
                          [["advance": 30], ["event": ["type": "lock"]]]]],
            ["expect": ["shielded": ["app": "com.atebits.Tweetie2", "is": true]]],
        ])
        let line = #"{"jsonrpc":"2.0","id":1,"method":"scenario.run","params":"#
            + String(decoding: try JSONWire.encode(JSONValue.object(["scenario": scenario, "strategy": "random", "seed": 5])), as: UTF8.self)
            + "}"
        let first = try DaemonProcess()
        defer { first.stop() }
        let second = try DaemonProcess()
        defer { second.stop() }
        let answer = try #require(first.sendRaw(line: line, timeout: 60))
        #expect(second.sendRaw(line: answer.isEmpty ? "" : line, timeout: 60) == answer)
        let result = try JSONWire.decode(JSONValue.self, from: Data(answer.utf8))["result"]
        #expect(result?["passed"] == true, "\(String(describing: result?["failures"]))")
        let applied = (result?["trace"]?.arrayValue ?? []).filter { $0["kind"] == "shield.apply" }
        #expect(applied.contains { $0["applications"] == .array(apps.sorted { $0.stringValue! < $1.stringValue! }) })
    }

    /// An exploration asked for `progress` tells its caller how far it got (`scenario.progress`,
    /// before the answer; without it the answer is the next line, as the contract has it), and
    /// stops when its caller goes away; the daemon answers others meanwhile.
    @Test func anExplorationReportsProgressAndStopsWhenItsCallerGoesAway() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let fixed = try Self.scenario(Self.fixed)
        let request: JSONValue = [
            "jsonrpc": "2.0", "id": 1, "method": "scenario.explore",
            "params": ["scenario": fixed, "strategy": "pct", "schedules": 300, "jobs": 1, "progress": true],
        ]
        let connection = try daemon.connect(receiveTimeout: 300)
        try connection.send(String(decoding: try JSONWire.encode(request), as: UTF8.self) + "\n")
        var progress: [JSONValue] = []
        var answer: JSONValue?
        while answer == nil, let line = try connection.readLine() {
            let message = try JSONWire.decode(JSONValue.self, from: Data(line.utf8))
            if message["method"] == "scenario.progress" { progress.append(message["params"] ?? .null) } else { answer = message }
        }
        #expect(answer?["result"]?["schedules"] == 300)
        #expect(!progress.isEmpty)
        #expect(progress.allSatisfy { $0["schedules"] == 300 && ($0["done"]?.intValue ?? 0) % 100 == 0 })

        let endless: JSONValue = [
            "jsonrpc": "2.0", "id": 2, "method": "scenario.explore",
            "params": ["scenario": fixed, "strategy": "random", "schedules": 10_000_000, "jobs": 1, "progress": true],
        ]
        do {
            let leaving = try daemon.connect(receiveTimeout: 300)
            try leaving.send(String(decoding: try JSONWire.encode(endless), as: UTF8.self) + "\n")
            let first = try #require(try leaving.readLine())
            #expect(first.contains("scenario.progress"))
            #expect(try daemon.call("daemon.ping")["pong"] == true, "others are answered meanwhile")
        }  // the connection closes here
        var stopped = false
        for _ in 0..<3000 where !stopped {
            stopped = daemon.log.contains("went away: exploration stopped after")
            if !stopped { _ = try daemon.call("daemon.ping") }
        }
        #expect(stopped, "\(daemon.log)")
    }
}
