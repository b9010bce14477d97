import ControlProtocol
import Foundation
import Testing

@testable import clarityctl

/// `record start` and `record stop`: the params they send, the arguments they refuse (naming
/// them, exit status 2), the scenario file's layout and what they print.
@Suite struct RecordCommandTests {
    /// The usage error parsing `words` as `record …` gives, and the exit status it makes.
    private func refusal(_ words: [String]) -> (message: String, status: clarityctl.ExitStatus)? {
        var arguments = Arguments(["record"] + words)
        do {
            let options = try GlobalOptions.extract(from: &arguments, environment: [:])
            guard case .command(let type)? = try CommandRegistry.lookup(&arguments) else { return nil }
            _ = try type.init(arguments: &arguments, options: options)
            try arguments.finish()
            return nil
        } catch {
            return ((error as? UsageError)?.message ?? "\(error)", FailureReport(error, command: "record").status)
        }
    }

    @Test func stopTakesAFileAndAName() throws {
        let stop = try parsedCommand(RecordStop.self, ["-o", "/tmp/odd.json", "--name", "odd shield"])
        #expect(stop.file?.path == "/tmp/odd.json")
        #expect(stop.params == ["name": "odd shield"])
        let long = try parsedCommand(RecordStop.self, ["--output=/tmp/odd.json"])
        #expect(long.file?.path == "/tmp/odd.json")
        #expect(long.params == [:])
        #expect(try parsedCommand(RecordStop.self, []).file == nil)
        _ = try parsedCommand(RecordStart.self, ["--device", "lab"])
    }

    @Test func badArgumentsAreNamedAndExitTwo() {
        let cases: [([String], String)] = [
            (["stop", "-o", "a.json", "--output", "b.json"], "-o and --output cannot be combined"),
            (["stop", "-o"], "option -o needs a value"),
            (["stop", "-o="], "option -o needs a file name"),
            (["stop", "-o", "/nonexistent/dir/x.json"], "-o /nonexistent/dir/x.json: no directory /nonexistent/dir to write it in"),
            (["stop", "--name"], "option --name needs a value"),
            (["stop", "--name="], "option --name needs a non-empty name"),
            (["stop", "extra"], "unexpected argument 'extra'"),
            (["start", "-o", "x.json"], "unknown option '-o'"),
            (["start", "now"], "unexpected argument 'now'"),
            (["strat"], "unknown command 'record strat'; did you mean 'record start'?"),
        ]
        for (words, message) in cases {
            let refusal = refusal(words)
            #expect(refusal?.message == message, "\(words)")
            #expect(refusal?.status == .usage, "\(words)")
        }
    }

    @Test func theScenarioFileHasAMemberALineAndAStepALine() {
        let scenario: JSONValue = [
            "steps": [["advance": 600], ["intent": ["name": "focus.end", "args": [:]], "fails": ["refused": "noFocusSession"]]],
            "timezone": "UTC", "seed": 0, "name": "odd", "app": "clarity", "start": "2026-01-05T09:00:00Z",
            "config": ["quirks": [:]], "zone": 1,
        ]
        #expect(
            ScenarioText.text(of: scenario) == """
                {
                  "name": "odd",
                  "app": "clarity",
                  "start": "2026-01-05T09:00:00Z",
                  "timezone": "UTC",
                  "seed": 0,
                  "config": {"quirks":{}},
                  "zone": 1,
                  "steps": [
                    {"advance":600},
                    {"fails":{"refused":"noFocusSession"},"intent":{"args":{},"name":"focus.end"}}
                  ]
                }

                """)
        #expect(ScenarioText.text(of: ["name": "x", "steps": []]) == "{\n  \"name\": \"x\",\n  \"steps\": []\n}\n")
    }

    @Test func whatStartAndStopPrint() {
        let started: JSONValue = ["seq": 12, "t": 300, "time": "2026-01-05T09:05:00Z"]
        #expect(
            RecordingView.startLines(["device": "lab", "history": 1, "started": started]) == [
                "recording device lab from seq 12 (t=300, 2026-01-05T09:05:00Z), after 1 request that rebuilds it",
                "stop with: clarityctl record stop -o FILE --device lab",
            ])
        let stopped: JSONValue = [
            "device": "lab", "started": started, "stopped": ["seq": 41, "t": 600.5, "time": "2026-01-05T09:10:00.500Z"],
            "counts": ["history": 2, "recorded": 3, "events": 1, "intents": 1, "advances": 1, "failed": 1],
            "scenario": ["name": "odd", "steps": []],
        ]
        #expect(
            RecordingView.stopLines(stopped, file: "odd.json") == [
                "wrote 5 steps to odd.json (scenario \"odd\")",
                "  history:  2 steps (steps[0]–steps[1]) rebuild device lab as it was at seq 12 (t=300, 2026-01-05T09:05:00Z)",
                "  recorded: 3 steps (steps[2]–steps[4]) until seq 41 (t=600.5, 2026-01-05T09:10:00.500Z): 1 event, 1 intent, 1 advance; 1 failed (their steps carry \"fails\")",
                "  trace:    seq 13–41 recorded",
                "replay it: clarityctl run odd.json",
            ])
        var written = stopped.objectValue ?? [:]
        written["scenario"] = nil
        written["path"] = "/tmp/odd.json"
        written["bytes"] = 140_698_436
        #expect(
            RecordingView.stopLines(.object(written), file: "odd.json").first
                == "wrote 5 steps to odd.json (140698436 bytes, too large to answer: written by clarityd)")
    }
}
