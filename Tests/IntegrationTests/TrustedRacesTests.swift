import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

/// Races a CI can trust (docs/scenarios.md): schedules are made at platform calls, so a failure
/// replays from its token in any build that makes the same decisions; the shrunk schedule fails
/// the same way with the fewest preemptions; a bounded search says when it is exhaustive; a
/// known race can be pinned; an exploration can be cancelled from another connection.
@Suite struct TrustedRacesTests {
    static let race = try! ScenarioTests.scenario(ScenarioTests.race)
    static let fixed = try! ScenarioTests.scenario(ScenarioTests.fixed)

    /// The race needs no preemption at all: a bounded search finds it at bound 0, and the
    /// failure it reports replays from its token.
    @Test func aBoundedSearchFindsTheRaceWithoutPreemptionAndItsTokenReplaysIt() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let report = try daemon.call(
            "scenario.explore", ["scenario": Self.race, "strategy": "dfs", "preemptionBound": 2, "schedules": 100_000])
        #expect(report["failed"] == 1 && report["stoppedBy"] == "failure")
        #expect(report["exhaustive"] == false && report["bound"] == 2)
        #expect(report["passed"] == true, "the race scenario pins it with expectFailure")
        let failure = try #require(report["failures"]?.arrayValue?.first)
        #expect(failure["strategy"] == "dfs")
        #expect(failure["preemptions"] == 0, "\(failure)")
        let replay = try daemon.call("scenario.replay", ["scenario": Self.race, "schedule": failure["schedule"]!])
        #expect(replay["failures"]?.arrayValue?.first?["invariant"] == failure["invariant"])
        #expect(replay["divergence"] == nil)
        #expect(failure["build"]?["revision"] == Self.checkedOutRevision.map(JSONValue.string), "\(failure)")
    }

    /// The commit checked out where these sources are (`git rev-parse HEAD`), nil outside a git
    /// work tree: what a failure's `build.revision` names.
    static var checkedOutRevision: String? {
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git", "-C", URL(fileURLWithPath: #filePath).deletingLastPathComponent().path, "rev-parse", "HEAD"]
        let output = Pipe()
        git.standardOutput = output
        git.standardError = Pipe()
        guard (try? git.run()) != nil else { return nil }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        git.waitUntilExit()
        guard git.terminationStatus == 0 else { return nil }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The fixed variant: every schedule without a preemption passes, and the search says it ran
    /// them all; sleep sets cut the orders of commuting steps (`pruned`). `sleepSets` goes with
    /// dfs only. (Deeper proofs of this variant, and the same bound without sleep sets — 37,776
    /// schedules — cost minutes in debug: `.ci/run` proves bound 2 with the release build, and
    /// SleepSetTests compares with and without sleep sets on smaller scenarios.)
    @Test func aBoundedSearchOfTheFixedVariantIsExhaustiveAtBoundZero() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        daemon.answerTimeout = 300
        let reduced = try daemon.call(
            "scenario.explore", ["scenario": Self.fixed, "strategy": "dfs", "preemptionBound": 0])
        #expect(reduced["failed"] == 0)
        #expect(reduced["exhaustive"] == true && reduced["bound"] == 0, "\(reduced)")
        #expect((reduced["pruned"]?.intValue ?? 0) > 0, "\(reduced)")
        #expect(reduced["passed"] == true)
        #expect((reduced["schedules"]?.intValue ?? 0) > 1, "\(reduced)")
        let refused = #expect(throws: RPCError.self) {
            try daemon.call("scenario.explore", ["scenario": Self.fixed, "strategy": "pct", "sleepSets": false])
        }
        #expect(refused?.code == -32602 && refused?.data?["field"] == "sleepSets", "\(String(describing: refused))")
    }

    /// A token names its scenario: replaying it on another is refused; one that no longer fits
    /// (a pick whose task is not ready) stops with where it diverged.
    @Test func aTokenForAnotherScenarioIsRefusedAndOneThatNoLongerFitsDiverges() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let run = try daemon.call("scenario.run", ["scenario": Self.race])
        let token = try #require(run["token"]?.stringValue)
        #expect(token.hasPrefix("v2:"))
        #expect(throws: RPCError.self) { try daemon.call("scenario.replay", ["scenario": Self.fixed, "schedule": .string(token)]) }
        let hash = token.split(separator: ":")[1]
        let misfit = try daemon.call("scenario.replay", ["scenario": Self.race, "schedule": .string("v2:\(hash):3@999")])
        #expect(misfit["divergence"]?.stringValue?.contains("diverged at decision 3: the schedule runs task 999 there") == true, "\(misfit)")
        #expect(misfit["passed"] == false)
        let fifo = try daemon.call("scenario.replay", ["scenario": Self.race, "schedule": run["schedule"]!])
        #expect(fifo["schedule"] == run["schedule"])
        // A replay traces every read with its value (docs/decisions.md): the run's effects, in
        // order, are the replay's without the main app's reads, seqs and read values aside.
        func effects(_ trace: JSONValue?, droppingMainAppReads: Bool) -> [JSONValue] {
            (trace?.arrayValue ?? []).compactMap { entry in
                guard var fields = entry.objectValue else { return nil }
                let read = fields["kind"] == "store.read"
                if read && droppingMainAppReads && fields["sandbox"] == nil { return nil }
                fields["seq"] = nil
                if read { fields["value"] = nil }
                return .object(fields)
            }
        }
        #expect(
            effects(fifo["trace"], droppingMainAppReads: true) == effects(run["trace"], droppingMainAppReads: false),
            "the task picked at every decision replays the run")
        #expect(fifo["divergence"] == nil)
    }

    /// The same scenario makes the same decisions however often it runs: the count
    /// config/scheduling-points.json declares of the scenario's own schedule (the same in a debug
    /// and a release build: scripts/replay-across-builds.sh, run by .ci/run).
    @Test func theRaceScenariosOwnScheduleMakesTheDecisionsDeclared() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let declared = try #require(CommandLineScenarioTests.raceSchedule)
        #expect(try daemon.call("scenario.run", ["scenario": Self.race])["decisions"]?.intValue == declared.decisions)
    }

    /// A pinned race fails its exploration once it is no longer found.
    @Test func aPinnedRaceThatIsNotFoundFails() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        guard case .object(var pinned) = Self.fixed else { return }
        pinned["expectFailure"] = true
        let report = try daemon.call("scenario.explore", ["scenario": .object(pinned), "schedules": 50])
        #expect(report["failed"] == 0)
        #expect(report["expectFailure"] == true && report["passed"] == false)
    }

    /// An exploration whose time limit ran out before any schedule passes nothing: `passed` is
    /// false, for a scenario that pins a race too (issue 38: `timeLimit: 0.001` answered
    /// `schedules: 0, passed: true`, and a CI with a tiny limit passed without exploring).
    @Test func anExplorationThatRanNoScheduleHasNotPassed() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        for scenario in [Self.fixed, Self.race] {
            let report = try daemon.call("scenario.explore", ["scenario": scenario, "timeLimit": 1e-9])
            #expect(report["schedules"] == 0 && report["stoppedBy"] == "timeLimit", "\(report)")
            #expect(report["passed"] == false, "\(report)")
        }
    }

    /// Schedule i runs seed seedStart + i, and each must be a seed a request can carry exactly,
    /// so that a failure replays: an exploration whose last seed would pass Int.max is refused
    /// naming `seedStart` (issue 38: 9223372036854775806 was taken, and the seeds after Int.max
    /// came back as 9.223372036854776e+18); up to it, every seed comes back as the exact integer.
    @Test func everySeedOfAnExplorationIsAnIntegerARequestCarries() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        daemon.answerTimeout = 300
        let refused = daemon.error(
            calling: "scenario.explore", ["scenario": Self.race, "seedStart": .int(Int.max - 1), "schedules": 3])
        #expect(refused?.data?["field"] == "seedStart", "\(String(describing: refused))")
        #expect(refused?.message.contains("at most \(Int.max - 2) with 3 schedules") == true)
        let start = Int.max - 99
        let report = try daemon.call(
            "scenario.explore", ["scenario": Self.race, "seedStart": .int(start), "schedules": 100, "stopAtFirst": false])
        let seeds = (report["failures"]?.arrayValue ?? []).filter { $0["scheduleIndex"] != -1 }.map { $0["seed"] }
        #expect(!seeds.isEmpty, "\(report)")
        for seed in seeds {
            #expect(seed?.intValue.map { $0 >= start } == true, "an exact integer seed: \(String(describing: seed))")
        }
    }

    /// Request ids are each connection's own: two explorations under one id on two connections
    /// are not both stopped by one `scenario.cancel` (issue 38) — a bare id that names several is
    /// refused naming their connections, and `connection` picks one; `daemon.status` lists them.
    @Test func aCancelStopsTheExplorationOfOneConnectionOnly() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let first = try daemon.connect(receiveTimeout: 60)
        let second = try daemon.connect(receiveTimeout: 60)
        let endless: JSONValue = ["scenario": Self.fixed, "strategy": "random", "schedules": 10_000_000]
        func explorations() throws -> [JSONValue] {
            try daemon.call("daemon.status")["scenarios"]?["explorations"]?.arrayValue ?? []
        }
        try first.request(id: 7, "scenario.explore", endless)
        try second.request(id: 7, "scenario.explore", endless)
        #expect(try daemon.eventually { try explorations().count == 2 })
        let connections = try explorations().compactMap { $0["connection"]?.intValue }
        #expect(try explorations().map { $0["id"] } == [7, 7] && connections.count == 2)

        let ambiguous = daemon.error(calling: "scenario.cancel", ["id": 7])
        #expect(ambiguous?.data?["field"] == "id", "\(String(describing: ambiguous))")
        #expect(ambiguous?.message.contains("connections \(connections[0]), \(connections[1])") == true)
        #expect(try explorations().count == 2, "a cancel that names several stops none")

        #expect(try daemon.call("scenario.cancel", ["id": 7, "connection": .int(connections[1])])["cancelled"] == true)
        let stopped = try #require(try second.answer())
        #expect(stopped["result"]?["stoppedBy"] == "cancelled", "\(stopped)")
        #expect(try explorations().map { $0["connection"] } == [.int(connections[0])], "the other still runs")
        #expect(try daemon.call("scenario.cancel", ["id": 7])["cancelled"] == true, "now the id names one")
        #expect(try first.answer()?["result"]?["stoppedBy"] == "cancelled")
    }

    /// `scenario.cancel` stops an exploration from another connection; its caller gets what it
    /// found, `stoppedBy: "cancelled"`.
    @Test func anExplorationIsCancelledFromAnotherConnection() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let explorer = try daemon.connect(receiveTimeout: 60)
        try explorer.request(id: 41, "scenario.explore", ["scenario": Self.fixed, "strategy": "random", "schedules": 10_000_000])
        #expect(try daemon.eventually { try daemon.scenarioLoad().running == 1 })
        #expect(try daemon.call("scenario.cancel", ["id": 40])["cancelled"] == false)
        #expect(try daemon.call("scenario.cancel", ["id": 41])["cancelled"] == true)
        let answer = try #require(try explorer.answer())
        #expect(answer["result"]?["stoppedBy"] == "cancelled", "\(answer)")
    }

    /// A failure found by a PCT schedule shrinks to the fewest preemptions that still fail the
    /// same way, and its token replays that failure.
    @Test func aRaceFoundByPCTShrinksToTheSameFailure() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let report = try daemon.call("scenario.explore", ["scenario": Self.race, "strategy": "pct", "schedules": 200, "seedStart": 1])
        let failure = try #require(report["failures"]?.arrayValue?.first, "\(report)")
        #expect(failure["scheduleIndex"] != -1, "found by a PCT schedule, not the scenario's own")
        let preemptions = try #require(failure["preemptions"]?.intValue)
        #expect(preemptions <= 3 && preemptions <= (failure["originalPreemptions"]?.intValue ?? -1), "\(failure)")
        #expect((failure["deviations"]?.intValue ?? .max) <= (failure["originalLength"]?.intValue ?? 0))
        let replay = try daemon.call("scenario.replay", ["scenario": Self.race, "schedule": failure["schedule"]!])
        let replayed = try #require(replay["failures"]?.arrayValue?.first)
        #expect(replayed["invariant"] == failure["invariant"] && replayed["step"] == failure["step"])
    }

    /// The race detector's old false positive, as a scenario: the main app reads
    /// `prosocialChallengeVerified` on becoming active; while the monitor writes true (the late
    /// batch), `challenge.open` resets it without reading. No schedule is a lost update.
    @Test func aResetRacingTheMonitorIsNoLostUpdateInAnySchedule() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        daemon.answerTimeout = 300
        func step(_ type: String, _ fields: [String: JSONValue] = [:]) -> JSONValue {
            ["event": .object(fields.merging(["type": .string(type)]) { first, _ in first })]
        }
        func intent(_ name: String, _ args: JSONValue = [:]) -> JSONValue { ["intent": ["name": .string(name), "args": args]] }
        let reset: JSONValue = [
            "name": "reset-racing-the-monitor", "failOnRace": true, "builtInInvariants": false,
            "config": ["quirks": ["batchedThresholds": true]],
            "steps": [
                step("contacts.set", ["contacts": [["id": "mom", "name": "Mom", "phone": "+15550100"]]]),
                intent("setImportantContacts", ["contacts": [["id": "mom"]]]),
                intent("selectApps", ["apps": ["com.burbn.instagram"]]),
                step("app.open", ["app": "com.burbn.instagram"]), ["advance": 660],
                step("app.open", ["app": "com.clarity.focus"]), intent("challenge.open"), ["advance": 40],
                step("app.open", ["app": "com.clarity.focus"]),
                ["parallel": [[["advance": 30]], [["advance": 30], intent("challenge.open")]]],
            ],
        ]
        let report = try daemon.call("scenario.explore", ["scenario": reset, "strategy": "dfs", "preemptionBound": 0])
        #expect(report["exhaustive"] == true && report["failed"] == 0, "\(report)")
        #expect((report["schedules"]?.intValue ?? 0) > 1)
    }
}
