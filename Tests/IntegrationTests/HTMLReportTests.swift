import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

/// A run's HTML report end to end (issue 43, items 2–4): `report: true` on `scenario.run` and
/// `scenario.replay` adds `report` and changes nothing else of the answer (trace, schedule);
/// `clarityctl run|replay|explore … --html` write the page, `explore DIR --junit F --html DIR2`
/// one per failing scenario, linked from its test case; a path that cannot be written is named.
@Suite struct HTMLReportTests {
    /// A directory of one's own, removed by `body`'s end.
    private func withDirectory(_ body: (String) throws -> Void) throws {
        let path = "/tmp/html-report-test-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }

    private static func withoutReport(_ answer: JSONValue) -> JSONValue {
        guard case .object(var members) = answer else { return answer }
        members["report"] = nil
        return .object(members)
    }

    @Test func aReportChangesNothingElseOfTheAnswer() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let scenario = try ScenarioTests.scenario(ScenarioTests.race)
        let plain = try daemon.call("scenario.run", ["scenario": scenario])
        #expect(plain["report"] == nil)
        let reported = try daemon.call("scenario.run", ["scenario": scenario, "report": true])
        #expect(Self.withoutReport(reported) == plain, "the same trace, schedule and token with the report as without")
        let steps = try #require(reported["report"]?["steps"]?.arrayValue)
        #expect(steps.count == 15, "11 steps and the parallel step's 4 branch steps")
        #expect(steps.first?["path"] == "steps[0]")
        #expect(steps.first?["label"]?.stringValue?.hasPrefix("event contacts.set contacts=[") == true, "the step as a command says it")
        let labels = steps.compactMap { $0["label"]?.stringValue }
        #expect(labels.contains("advance 600") && labels.contains("intent challenge.open"))
        #expect(steps.allSatisfy { $0["screen"]?["home"] != nil && $0["appGroup"] != nil && $0["changed"] != nil })
        #expect(reported["report"]?["device"]?["apps"]?.arrayValue?.first?["bundleIdentifier"] == "com.clarity.focus")

        let token = try #require(plain["token"])
        let replayed = try daemon.call("scenario.replay", ["scenario": scenario, "schedule": token, "report": true])
        #expect(Self.withoutReport(replayed) == (try daemon.call("scenario.replay", ["scenario": scenario, "schedule": token])))
        #expect(replayed["report"]?["steps"]?.arrayValue?.count == 15)

        let refused = daemon.error(calling: "scenario.run", ["scenario": scenario, "report": "yes"])
        #expect(refused?.code == -32602 && refused?.message.contains("report") == true, "\(String(describing: refused))")
        #expect(try daemon.call("scenario.run", ["scenario": scenario]) == plain, "the daemon keeps serving")
    }

    @Test func exploreOfADirectoryWritesAReportPerFailingScenarioLinkedFromJUnit() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        try withDirectory { directory in
            let scenarios = directory + "/scenarios"
            try FileManager.default.createDirectory(atPath: scenarios, withIntermediateDirectories: false)
            for name in [ScenarioTests.race, ScenarioTests.fixed] {
                try FileManager.default.copyItem(atPath: ScenarioTests.path(name), toPath: "\(scenarios)/\(name).json")
            }
            let reports = directory + "/reports"
            let junit = directory + "/junit.xml"
            let explore = daemon.runCtl(["explore", scenarios, "--schedules", "200", "--junit", junit, "--html", reports])
            #expect(explore.status == 0, "\(explore.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: reports) == ["\(ScenarioTests.race).html"])
            #expect(explore.stdout.contains("explore: no failure of \(scenarios)/\(ScenarioTests.fixed).json: no report written"))
            let xml = try String(contentsOfFile: junit, encoding: .utf8)
            #expect(xml.contains("<system-out>report: \(reports)/\(ScenarioTests.race).html</system-out>"), "\(xml)")
            let html = try String(contentsOfFile: "\(reports)/\(ScenarioTests.race).html", encoding: .utf8)
            #expect(html.contains("data-lane=\"clarity.monitor\"") && html.contains("data-failing=\"true\""))
            #expect(html.contains("<code class=\"replay-command\">clarityctl replay \(scenarios)/\(ScenarioTests.race).json --schedule v2:"))

            // The header's replay command, run with --html, writes the same failure's page.
            let replay = try #require(
                CommandLineScenarioTests.replayCommands(explore.stdout).first { $0.contains("--schedule") })
            let page = directory + "/replay.html"
            let replayed = daemon.runCtl(replay + ["--html", page])
            #expect(replayed.status == 1, "the failure reproduced: \(replayed.stderr)")
            #expect(replayed.stderr.contains("wrote the report (15 steps) to \(page)"))
            #expect(try String(contentsOfFile: page, encoding: .utf8).contains("invariant challengeVerifiedByTexting"))

            let run = daemon.runCtl(["run", ScenarioTests.path(ScenarioTests.race), "--html", directory + "/run.html"])
            #expect(run.status == 0 && FileManager.default.fileExists(atPath: directory + "/run.html"), "\(run.stderr)")
        }
    }

    @Test func anHTMLPathThatCannotBeWrittenIsNamed() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let file = ScenarioTests.path(ScenarioTests.race)
        let missing = daemon.runCtl(["run", file, "--html", "/nonexistent-dir/report.html"])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("--html /nonexistent-dir/report.html: no directory /nonexistent-dir"), "\(missing.stderr)")
        let directory = daemon.runCtl(["run", file, "--html", "/tmp"])
        #expect(directory.status != 0 && directory.stderr.contains("--html /tmp: is a directory"), "\(directory.stderr)")
        let explore = daemon.runCtl(["explore", file, "--schedules", "1", "--html", "/nonexistent-dir/x.html"])
        #expect(explore.status != 0 && explore.stderr.contains("--html"), "\(explore.stderr)")
    }
}
