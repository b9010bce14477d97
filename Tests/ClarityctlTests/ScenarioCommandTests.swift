import ControlProtocol
import Foundation
import Testing

@testable import clarityctl

/// `explore`, `replay` and `run`: the params they send, the arguments they refuse (naming them),
/// the scenario files they cannot read, and what they print.
@Suite struct ScenarioCommandTests {
    /// A scenario file of its own for each test, removed by `body`'s end.
    private func withScenarioFile(_ contents: String, _ body: (String) throws -> Void) throws {
        let path = "/tmp/scenario-test-\(UUID().uuidString).json"
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }

    private let scenario = #"{"steps":[{"advance":1}],"config":{"quirks":{"batchedThresholds":true}}}"#

    /// The usage error's message that parsing `words` gives, nil when they parse.
    private func usageError<Command: ClarityCommand>(_ type: Command.Type, _ words: [String]) -> String? {
        do {
            _ = try parsedCommand(type, words)
            return nil
        } catch {
            return (error as? UsageError)?.message ?? "\(error)"
        }
    }

    @Test func exploreSendsTheScenarioAndWhatWasGiven() throws {
        try withScenarioFile(scenario) { path in
            let command = try parsedCommand(ScenarioExplore.self, [path])
            #expect(command.params == ["schedules": 1000])
            #expect(command.files.map { try? $0.file.get().scenario } == [try JSONWire.decode(JSONValue.self, from: Data(scenario.utf8))])
            let all = try parsedCommand(
                ScenarioExplore.self,
                [
                    path, "--strategy", "pct", "--depth", "2", "--schedules", "50", "--seed-start", "7", "--shard", "1/4",
                    "--jobs", "3", "--time-limit", "1.5", "--swarm", "--all",
                ]
            ).params
            #expect(all["strategy"] == "pct")
            #expect(all["depth"] == 2)
            #expect(all["schedules"] == 50)
            #expect(all["seedStart"] == 7)
            #expect(all["shard"] == "1/4")
            #expect(all["jobs"] == 3)
            #expect(all["timeLimit"] == 1.5)
            #expect(all["swarm"] == true)
            #expect(all["stopAtFirst"] == false)
        }
    }

    @Test func badExploreArgumentsAreNamed() throws {
        try withScenarioFile(scenario) { path in
            #expect(usageError(ScenarioExplore.self, [path, "--shard", "3/2"]) == "--shard must be i/n with 0 ≤ i < n (e.g. 0/4), got '3/2'")
            #expect(usageError(ScenarioExplore.self, [path, "--shard", "1"]) == "--shard must be i/n with 0 ≤ i < n (e.g. 0/4), got '1'")
            #expect(usageError(ScenarioExplore.self, [path, "--schedules", "0"]) == "--schedules must be a positive integer, got '0'")
            #expect(usageError(ScenarioExplore.self, [path, "--strategy", "fifo"]) == "--strategy must be one of random, pct, dfs, got 'fifo'")
            #expect(usageError(ScenarioExplore.self, [path, "--depth", "0"]) == "--depth must be 1 to 10, got '0'")
            #expect(
                usageError(ScenarioExplore.self, [path, "--strategy", "random", "--depth", "2"])
                    == "--depth is PCT's: it does not go with --strategy random")
            #expect(usageError(ScenarioExplore.self, [path, "--time-limit", "0"]) == "--time-limit must be more than 0 seconds, got '0'")
            #expect(usageError(ScenarioExplore.self, [path, "--jobs", "x"]) == "--jobs must be a positive integer, got 'x'")
            #expect(usageError(ScenarioExplore.self, []) == "missing FILE|DIR (a scenario, JSON, or a directory of them)")
        }
    }

    @Test func replayTakesAScheduleOrASeedAndStrategy() throws {
        try withScenarioFile(scenario) { path in
            let bySchedule = try parsedCommand(ScenarioReplay.self, [path, "--schedule", "0,0,1,2", "--quirk", "a", "--quirk", "b"])
            #expect(bySchedule.params["schedule"] == [0, 0, 1, 2])
            #expect(bySchedule.params["quirks"] == ["a": true, "b": true])
            #expect(bySchedule.params["strategy"] == nil)
            #expect(try parsedCommand(ScenarioReplay.self, [path, "--schedule", ""]).params["schedule"] == [])
            let bySeed = try parsedCommand(
                ScenarioReplay.self, [path, "--seed", "2", "--strategy", "pct", "--depth", "3", "--expected-decisions", "151"])
            #expect(bySeed.params["seed"] == 2)
            #expect(bySeed.params["strategy"] == "pct")
            #expect(bySeed.params["depth"] == 3)
            #expect(bySeed.params["expectedDecisions"] == 151)
            #expect(bySeed.params["schedule"] == nil)
        }
    }

    @Test func badReplayArgumentsAreNamed() throws {
        try withScenarioFile(scenario) { path in
            #expect(
                usageError(ScenarioReplay.self, [path, "--schedule", "1,x"])
                    == "--schedule must be a token (v1:…) or task numbers (integers ≥ 0) separated by commas; 'x' is not one")
            #expect(
                usageError(ScenarioReplay.self, [path, "--schedule", "1,-2"])
                    == "--schedule must be a token (v1:…) or task numbers (integers ≥ 0) separated by commas; '-2' is not one")
            #expect(usageError(ScenarioReplay.self, [path]) == "replay needs --schedule TOKEN, or --seed S and --strategy fifo|random|pct")
            #expect(usageError(ScenarioReplay.self, [path, "--seed", "2"]) == "--seed needs --strategy fifo|random|pct")
            #expect(usageError(ScenarioReplay.self, [path, "--strategy", "pct"]) == "--strategy needs --seed S (or give --schedule TOKEN)")
            #expect(usageError(ScenarioReplay.self, [path, "--schedule", "1", "--seed", "2"]) == "--schedule and --seed cannot be combined")
            #expect(
                usageError(ScenarioReplay.self, [path, "--seed", "2", "--strategy", "random", "--expected-decisions", "9"])
                    == "--expected-decisions is PCT's: it goes with --strategy pct")
            #expect(usageError(ScenarioReplay.self, [path, "--schedule", "1", "--quirk", ""]) == "option --quirk needs a quirk's name, e.g. batchedThresholds")
        }
    }

    /// `--html` asks for the report (`report: true`) and no more; a report of a walk is refused,
    /// and an empty name is named (issue 43).
    @Test func htmlAsksForTheReport() throws {
        try withScenarioFile(scenario) { path in
            #expect(try parsedCommand(ScenarioRun.self, [path, "--html", "/tmp/r.html"]).options.members["report"] == true)
            #expect(try parsedCommand(ScenarioRun.self, [path]).options.members["report"] == nil)
            let replay = try parsedCommand(ScenarioReplay.self, [path, "--schedule", "1", "--html", "/tmp/r.html"])
            #expect(replay.params["report"] == true)
            #expect(
                usageError(ScenarioReplay.self, [path, "--schedule", "1", "--step", "--html", "/tmp/r.html"])
                    == "--html writes a whole replay: it does not go with --step")
            #expect(usageError(ScenarioRun.self, [path, "--html", ""]) == "option --html needs a file name")
            #expect(usageError(ScenarioExplore.self, [path, "--html", "/nonexistent-dir/r.html"]) == "--html /nonexistent-dir/r.html: no directory /nonexistent-dir to write it in")
        }
    }

    @Test func runSendsOnlyWhatWasGiven() throws {
        try withScenarioFile(scenario) { path in
            let plain = try parsedCommand(ScenarioRun.self, [path, "--trace"])
            #expect(plain.options.members.keys.sorted() == ["scenario"])
            #expect(plain.options.showsTrace)
            let pct = try parsedCommand(ScenarioRun.self, [path, "--strategy", "pct", "--seed", "5", "--depth", "2", "--standalone"])
            #expect(pct.options.members["strategy"] == "pct")
            #expect(pct.options.members["seed"] == 5)
            #expect(pct.options.members["depth"] == 2)
            #expect(pct.options.daemon.standalone)
            #expect(usageError(ScenarioRun.self, [path, "--depth", "2"]) == "--depth is PCT's: it goes with --strategy pct")
            #expect(usageError(ScenarioRun.self, [path, "--strategy", "dfs"]) == "--strategy must be one of fifo, random, pct, got 'dfs'")
        }
    }

    @Test func aScenarioFileThatCannotBeUsedIsAUsageErrorNamingIt() throws {
        #expect(usageError(ScenarioRun.self, ["/nonexistent/s.json"]) == "scenario file /nonexistent/s.json: no such file")
        #expect(usageError(ScenarioRun.self, ["/tmp"]) == "scenario file /tmp: is a directory")
        try withScenarioFile("{\"steps\": [") { path in
            #expect(usageError(ScenarioRun.self, [path])?.hasPrefix("scenario file \(path): not valid JSON: ") == true)
        }
        try withScenarioFile("[1]") { path in
            #expect(usageError(ScenarioRun.self, [path]) == "scenario file \(path): must hold a JSON object, not array")
        }
        try withScenarioFile(#"{"steps":[{"advance":30},]}"#) { path in
            #expect(
                usageError(ScenarioRun.self, [path]) == "scenario file \(path): not valid JSON: unexpected character at byte offset 25",
                "a trailing comma is not JSON (issue 22)")
        }
        try withScenarioFile("\u{FEFF}{\"steps\":[]}") { path in
            #expect(usageError(ScenarioRun.self, [path]) == nil, "a byte order mark before the JSON is skipped, as RFC 8259 allows")
        }
    }

    @Test func anArgumentIsJSONOnlyWhenItIsStrictJSON() throws {
        #expect(ArgumentValues.jsonOrString("[1,]") == .string("[1,]"))
        #expect(ArgumentValues.jsonOrString("[1]") == [1])
        #expect(throws: UsageError.self) { try ArgumentValues.json("{\"a\":1,}", for: "--config") }
    }

    /// A failure as `scenario.explore` reports it, from a swarm exploration.
    private let failure: JSONValue = [
        "message": "challenge X was verified by Communication use", "invariant": "challengeVerifiedByTexting",
        "step": "steps[10]", "scheduleIndex": 2, "seed": 2, "strategy": "pct", "depth": 3, "expectedDecisions": 151,
        "schedule": "v1:8c016fbf1f22746f:0@7,9@29", "preemptions": 2, "originalPreemptions": 5, "deviations": 2,
        "originalLength": 9, "story": ["⇄ decision 0: clarity.monitor#1 (task 7) runs before clarity.app (task 6)"],
        "quirks": ["batchedThresholds": true, "lateIntervalEnd": true],
        "build": ["configuration": "debug", "compiler": "swift-6.3", "version": "0.1.0", "revision": "9aca8ce0d1f5e2b7a3c4d5e6f708192a3b4c5d6e"],
    ]

    @Test func replayCommandsNameTheSwarmsQuirksButNotTheScenariosOwn() throws {
        try withScenarioFile(scenario) { path in
            var none = Arguments([])
            let lines = ScenarioReplay.commandLines(
                for: failure, file: try ScenarioFile(path: path), daemon: ScenarioDaemon(arguments: &none))
            #expect(
                lines == [
                    "clarityctl replay \(path) --schedule v1:8c016fbf1f22746f:0@7,9@29 --quirk lateIntervalEnd",
                    "clarityctl replay \(path) --seed 2 --strategy pct --depth 3 --expected-decisions 151 --quirk lateIntervalEnd",
                ])
            let replay = try parsedCommand(ScenarioReplay.self, lines[1].split(separator: " ").dropFirst(2).map(String.init))
            #expect(replay.params["seed"] == 2)
            #expect(replay.params["expectedDecisions"] == 151)
            #expect(replay.params["quirks"] == ["lateIntervalEnd": true])
        }
    }

    @Test func standaloneReplayCommandsStayStandaloneAndAnEmptyScheduleIsQuoted() throws {
        try withScenarioFile(scenario) { path in
            var words = Arguments(["--standalone"])
            let lines = ScenarioReplay.commandLines(
                for: ["seed": 0, "strategy": "random", "schedule": ""], file: try ScenarioFile(path: path),
                daemon: ScenarioDaemon(arguments: &words))
            #expect(
                lines == [
                    "clarityctl replay \(path) --standalone --schedule ''",
                    "clarityctl replay \(path) --standalone --seed 0 --strategy random",
                ])
        }
    }

    @Test func shellWordsAreQuotedOnlyWhenTheShellWouldSplitThem() {
        #expect(ShellWords.line(["clarityctl", "replay", "a b.json", "--schedule", "0,1"]) == "clarityctl replay 'a b.json' --schedule 0,1")
        #expect(ShellWords.quoted("") == "''")
        #expect(ShellWords.quoted("it's") == #"'it'\''s'"#)
        #expect(ShellWords.quoted("$HOME") == "'$HOME'")
    }

    @Test func anExplorationShowsItsSummaryThenEachFailureWithItsReplayCommands() {
        let report: JSONValue = [
            "schedules": 3, "failed": 2, "failures": [failure], "schedulesPerSecond": 45.18, "stepsPerSecond": 31515.1,
            "decisionsPerSecond": 1017.2, "seconds": 0.0885, "stoppedBy": "failure", "jobs": 2,
        ]
        let lines = ScenarioView.explorationLines(report) { _ in ["clarityctl replay s.json --schedule v1:8c016fbf1f22746f:0@7,9@29"] }
        #expect(
            lines == [
                "schedules:   3",
                "failed:      2",
                "schedules/s: 45.2",
                "steps/s:     31515",
                "decisions/s: 1017",
                "seconds:     0.09",
                "stoppedBy:   failure",
                "",
                "failure 1: challenge X was verified by Communication use",
                "  invariant:   challengeVerifiedByTexting",
                "  step:        steps[10]",
                "  seed:        2",
                "  strategy:    pct",
                "  depth:       3",
                "  preemptions: 2 (5 as found)",
                "  schedule:    v1:8c016fbf1f22746f:0@7,9@29 (2 switches from running each process on; 9 decisions as found)",
                "  quirks:      batchedThresholds, lateIntervalEnd",
                "  build:       debug, swift-6.3, 0.1.0, 9aca8ce0d1f5e2b7a3c4d5e6f708192a3b4c5d6e",
                "  story:",
                "    ⇄ decision 0: clarity.monitor#1 (task 7) runs before clarity.app (task 6)",
                "  replay:",
                "    clarityctl replay s.json --schedule v1:8c016fbf1f22746f:0@7,9@29",
                "",
                "(1 more failing schedule: the daemon keeps those with the lowest indexes)",
            ])
    }

    /// Issue 41: each failure says how likely it is — its class, the stalls longer than a
    /// quantum — and, when the daemon stopped at a failure, which failing schedules it kept.
    @Test func anExplorationSaysHowLikelyEachFailureIs() {
        guard case .object(var likely) = failure, case .object(var stalled) = failure else { return }
        likely["plausibility"] = "likely"
        likely["stalls"] = []
        likely["lessPlausibleSeen"] = 3
        stalled["plausibility"] = "needs a stall"
        stalled["stalls"] = [
            ["decision": 0, "process": "clarity.app", "microseconds": 68_280, "likely": false, "meanwhile": 24,
             "text": "needs clarity.app to pause ≥ 68.28 ms before read NEHotspotNetwork/ssid"],
            ["decision": 4, "process": "clarity.monitor", "microseconds": 40, "likely": true, "meanwhile": 2,
             "text": "needs clarity.monitor to pause ≥ 40 µs between two App Group calls"],
        ]
        let report: JSONValue = [
            "schedules": 55, "failed": 4, "failures": [.object(likely), .object(stalled)], "schedulesPerSecond": 45.18,
            "stepsPerSecond": 31515.1, "seconds": 0.0885, "stoppedBy": "failure", "jobs": 2,
        ]
        let lines = ScenarioView.explorationLines(report) { _ in [] }
        #expect(lines.filter { $0.hasPrefix("  likely:") } == [
            "  likely:      likely (3 less plausible schedules of this failure seen)",
            "  likely:      needs a stall; needs clarity.app to pause ≥ 68.28 ms before read NEHotspotNetwork/ssid",
        ])
        #expect(lines.last == "(2 more failing schedules: the daemon keeps the most plausible and the first found)")
    }

    @Test func aScheduleShowsItsVerdictAndWithTraceItsTraceFirst() {
        let result: JSONValue = [
            "passed": false, "failures": [["message": "expected frictionLevel 2", "step": "steps[4]"]], "strategy": "fifo",
            "seed": 0, "schedule": [1, 2, 1], "decisions": 3, "preemptions": 1, "token": "v1:0123456789abcdef:1@2",
            "quirks": ["batchedThresholds": true, "x": false],
            "trace": [["seq": 1, "t": 0, "kind": "store.write", "actor": "clarity.app", "key": "k"]],
        ]
        #expect(
            ScenarioView.scheduleLines(result, trace: true) == [
                "1  0  store.write  clarity.app  key=k",
                "",
                "result:    failed",
                "failure:   expected frictionLevel 2",
                "invariant: -",
                "step:      steps[4]",
                "strategy:  fifo",
                "quirks:    batchedThresholds",
                "trace:     1 event",
                "schedule:  3 decisions, 1 preemption",
                "token:     v1:0123456789abcdef:1@2",
            ])
    }

    @Test func aFailedScenarioExitsOneAndWithJSONAddsNothingToTheResult() {
        let report = FailureReport(ScenarioFailed(message: "explore: 1 of 3 schedules failed"), command: "explore")
        #expect(report.status == .daemonError)
        #expect(report.text == "clarityctl: explore: 1 of 3 schedules failed")
        #expect(report.json == nil)
    }
}

/// `explore --junit`: a test case per scenario, a failed one with its message, story and replay
/// command, properties a CI's merge reads; text escaped for XML.
@Suite struct JUnitReportTests {
    @Test func aFailedScenarioCarriesItsStoryAndReplayAndAPinnedOneThatWasNotFoundFails() {
        var report = JUnitReport(path: "/dev/null")
        report.add(
            file: "race.json",
            report: [
                "schedules": 14, "failed": 1, "passed": false, "seconds": 0.5,
                "failures": [["message": "a <b> & \"c\"", "scheduleIndex": 13, "schedule": "v1:ab:9@29", "story": ["⇄ decision 9"]]],
            ], replayLines: ["clarityctl replay race.json --schedule v1:ab:9@29"])
        report.add(file: "pinned.json", report: ["schedules": 50, "failed": 0, "passed": false, "expectFailure": true], replayLines: [])
        report.add(file: "fixed.json", report: ["schedules": 50, "failed": 0, "passed": true], replayLines: [])
        let xml = report.xml
        #expect(xml.contains(#"<testsuite name="clarityd scenarios" tests="3" failures="2" errors="0" time="0.500">"#))
        #expect(xml.contains(#"<failure message="a &lt;b&gt; &amp; &quot;c&quot;">"#))
        #expect(xml.contains("⇄ decision 9\nreplay:\nclarityctl replay race.json --schedule v1:ab:9@29\n"))
        #expect(xml.contains(#"<property name="scheduleIndex" value="13"/>"#))
        #expect(xml.contains("expected a failure (expectFailure), but none of 50 schedules failed"))
        #expect(xml.components(separatedBy: "<failure").count == 3)
    }

    /// A case that ran no schedule failed; one that could not be explored is an `<error>`; what
    /// XML 1.0 cannot hold (U+0001, U+FFFF) is written visibly, and a line break in an attribute
    /// as a character reference (issue 38).
    @Test func aScenarioThatRanNothingFailsOneNotExploredErrsAndNamesStayWellFormed() {
        var report = JUnitReport(path: "/dev/null")
        report.add(
            file: "slow\u{1}.json", report: ["schedules": 0, "failed": 0, "passed": false, "stoppedBy": "timeLimit"], replayLines: [])
        report.add(file: "bad.json", error: "Scenario invalid: steps[0].event.app: \u{FFFF}\nsecond line")
        let xml = report.xml
        #expect(xml.contains(#"tests="2" failures="1" errors="1""#))
        #expect(xml.contains(#"name="slow\u0001.json""#))
        #expect(xml.contains(#"<failure message="no schedule ran (stopped by timeLimit), so nothing was explored: not a pass"#))
        #expect(xml.contains(#"<error message="Scenario invalid: steps[0].event.app: \uFFFF&#10;second line"/>"#))
        #expect(!xml.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0xFFFF })
    }
}
