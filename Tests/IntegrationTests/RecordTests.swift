import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `record.start` and `record.stop` (docs/scenarios.md, Recording a session): a session driven
/// by hand comes back as a scenario whose run gives the device's trace again, event for event,
/// and its store; what cannot be recorded is refused, by name.
@Suite struct RecordTests {
    static let instagram = "com.burbn.instagram"

    private func failed(_ daemon: DaemonProcess, _ method: String, _ params: JSONValue) {
        #expect(daemon.error(calling: method, params) != nil, "\(method) \(params) fails, as the test means it to")
    }

    /// A session by hand on a device with a config, seed and zone of its own: history before
    /// `record.start` (an intent that failed on an argument among it), then events, a refused
    /// intent and advances. The scenario replays to the same trace, with the same store.
    @Test func aRecordedSessionReplaysToTheSameTraceAndStore() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let lab: JSONValue = "lab"
        _ = try daemon.call(
            "device.create",
            [
                "device": lab, "start": "2026-03-02T07:30:00Z", "timezone": "Europe/Berlin", "seed": 7,
                "config": ["quirks": ["batchedThresholds": true], "raceDetector": true],
            ])
        _ = try daemon.call("event", ["device": lab, "type": "contacts.set", "contacts": [["id": "mom", "name": "Mom", "phone": "+15550100"]]])
        _ = try daemon.call("intent", ["device": lab, "name": "setImportantContacts", "args": ["contacts": [["id": "mom"]]]])
        failed(daemon, "intent", ["device": lab, "name": "setImportantContacts", "args": ["contacts": [["id": "nobody"]]]])
        _ = try daemon.call("intent", ["device": lab, "name": "selectApps", "args": ["apps": [.string(Self.instagram)]]])
        _ = try daemon.call("event", ["device": lab, "type": "app.open", "app": .string(Self.instagram)])
        _ = try daemon.call("clock.advance", ["device": lab, "seconds": 300])

        let start = try daemon.call("record.start", ["device": lab])
        #expect(start["device"] == lab)
        #expect(start["history"] == 6, "every request that changed the device, the failed intent included")
        let startedSeq = try #require(start["started"]?["seq"]?.intValue)
        #expect(try daemon.trace(of: "lab").last?["seq"]?.intValue == startedSeq)
        #expect(start["started"]?["t"] == 300)

        _ = try daemon.call("clock.advance", ["device": lab, "seconds": 360])
        _ = try daemon.call("event", ["device": lab, "type": "shield.press", "app": .string(Self.instagram), "button": "secondary"])
        failed(daemon, "intent", ["device": lab, "name": "focus.end"])
        _ = try daemon.call("store.get", ["device": lab, "key": "frictionLevel"])
        _ = try daemon.call("event", ["device": lab, "type": "lock"])
        _ = try daemon.call("clock.advance", ["device": lab, "seconds": 90.5])
        _ = try daemon.call("event", ["device": lab, "type": "unlock"])
        let live = try daemon.trace(of: "lab")
        let store = try #require(daemon.call("store.dump", ["device": lab])["values"]?.objectValue)

        let stop = try daemon.call("record.stop", ["device": lab, "name": "odd shield"])
        #expect(stop["started"] == start["started"])
        #expect(stop["stopped"]?["seq"]?.intValue == live.last?["seq"]?.intValue)
        #expect(stop["stopped"]?["t"] == 750.5)
        #expect(
            stop["counts"] == ["history": 6, "recorded": 6, "events": 3, "intents": 1, "advances": 2, "failed": 1],
            "store.get changed nothing, so it is no step")
        let scenario = try #require(stop["scenario"])
        #expect(scenario["name"] == "odd shield")
        #expect(scenario["start"] == "2026-03-02T07:30:00Z" && scenario["timezone"] == "Europe/Berlin" && scenario["seed"] == 7)
        #expect(scenario["config"]?["quirks"] == ["batchedThresholds": true] && scenario["config"]?["raceDetector"] == true)
        let steps = try #require(scenario["steps"]?.arrayValue)
        #expect(steps.count == 12)
        #expect(steps[2]["fails"] == ["invalidArgument": "args.contacts[0].id"])
        #expect(steps[8] == ["intent": ["name": "focus.end", "args": [:]], "fails": ["refused": "noFocusSession"]])
        #expect(steps[10] == ["advance": 90.5])

        let run = try daemon.call("scenario.run", ["scenario": scenario])
        #expect(run["passed"] == true, "\(String(describing: run["failures"]))")
        let replayed = try #require(run["trace"]?.arrayValue)
        #expect(replayed == live, "the whole trace, history included, event for event")
        #expect(replayed.filter { ($0["seq"]?.intValue ?? 0) > startedSeq } == (try daemon.trace(of: "lab", since: startedSeq)))

        var checked = scenario.objectValue ?? [:]
        checked["steps"] = .array(
            steps + store.keys.sorted().map { key in ["expect": ["store": ["key": .string(key), "equals": store[key] ?? .null]]] })
        let withStore = try daemon.call("scenario.run", ["scenario": .object(checked)])
        #expect(withStore["passed"] == true, "the store as the device has it: \(String(describing: withStore["failures"]))")
        #expect(!store.isEmpty)
    }

    @Test func startStopAndTheDeviceAreCheckedByName() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        #expect(daemon.error(calling: "record.start", ["device": "nowhere"])?.code == -32000)
        #expect(daemon.error(calling: "record.stop", ["device": "nowhere"])?.code == -32000)

        let notRecording = daemon.error(calling: "record.stop")
        #expect(notRecording?.code == -32009)
        #expect(notRecording?.data == ["device": "default", "reason": "notRecording"])
        #expect(notRecording?.message.contains("record.start it first") == true)

        let start = try daemon.call("record.start")
        #expect(start["history"] == 0, "default received nothing yet")
        let again = daemon.error(calling: "record.start", ["device": "default"])
        #expect(again?.code == -32009)
        #expect(again?.data?["reason"] == "recording")
        #expect(again?.message.contains("being recorded already") == true)

        let unnamed = daemon.error(calling: "record.stop", ["name": ""])
        #expect(unnamed?.code == -32602 && unnamed?.data?["field"] == "name", "checked before the recording ends")
        #expect(daemon.error(calling: "record.stop", ["nmae": "x"])?.data?["field"] == "nmae")

        let stop = try daemon.call("record.stop")
        #expect(stop["scenario"]?["name"] == "recorded on default")
        #expect(stop["scenario"]?["steps"] == [])
        #expect(daemon.error(calling: "record.stop")?.data?["reason"] == "notRecording", "stopped once")
    }

    /// `store.set` before `record.start` refuses it; while recorded, it drops the recording.
    /// A wall-clock device is refused.
    @Test func whatNoStepGivesAgainIsRefusedByName() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        _ = try daemon.call("event", ["type": "lock"])
        _ = try daemon.call("store.set", ["key": "frictionLevel", "value": 3])
        let before = daemon.error(calling: "record.start")
        #expect(before?.code == -32009)
        #expect(before?.data == ["device": "default", "reason": "unrecordable", "method": "store.set", "t": 0])

        _ = try daemon.call("device.create", ["device": "b"])
        _ = try daemon.call("record.start", ["device": "b"])
        _ = try daemon.call("event", ["device": "b", "type": "lock"])
        _ = try daemon.call("clock.advance", ["device": "b", "seconds": 60])
        _ = try daemon.call("activity.stop", ["device": "b", "names": ["none"]])
        _ = try daemon.call("device.config", ["device": "b", "config": ["raceDetector": true]])
        let spoiled = daemon.error(calling: "record.stop", ["device": "b"])
        #expect(spoiled?.code == -32009)
        #expect(spoiled?.data == ["device": "b", "reason": "unrecordable", "method": "device.config", "t": 60])
        #expect(spoiled?.message.contains("while recorded") == true && spoiled?.message.contains("dropped") == true)
        #expect(daemon.error(calling: "record.stop", ["device": "b"])?.data?["reason"] == "notRecording")

        _ = try daemon.call("device.create", ["device": "w", "clock": "wall"])
        #expect(daemon.error(calling: "record.start", ["device": "w"])?.data?["reason"] == "wallClock")
    }

    /// A device compacted before `record.start` is refused; one recorded is not compacted until
    /// `record.stop`, so its scenario still replays to its trace.
    @Test func compactionRefusesTheStartAndWaitsForTheStop() throws {
        let daemon = try DaemonProcess(config: ["compactJournalAfter": 3])
        defer { daemon.stop() }
        for _ in 0..<3 { _ = try daemon.call("clock.advance", ["seconds": 60]) }
        #expect(daemon.error(calling: "record.start")?.data?["reason"] == "compacted")

        _ = try daemon.call("device.create", ["device": "c"])
        _ = try daemon.call("record.start", ["device": "c"])
        _ = try daemon.call("intent", ["device": "c", "name": "selectApps", "args": ["apps": [.string(Self.instagram)]]])
        _ = try daemon.call("event", ["device": "c", "type": "app.open", "app": .string(Self.instagram)])
        for _ in 0..<4 { _ = try daemon.call("clock.advance", ["device": "c", "seconds": 300]) }
        #expect(!daemon.log.contains("device c: journal compacted"), "held while recorded")
        let live = try daemon.trace(of: "c")
        let stop = try daemon.call("record.stop", ["device": "c"])
        #expect(daemon.eventually { daemon.log.contains("device c: journal compacted") }, "done at the stop, being due")
        let run = try daemon.call("scenario.run", ["scenario": try #require(stop["scenario"])])
        #expect(run["passed"] == true)
        #expect(run["trace"]?.arrayValue == live)
    }

    /// A recording lives in memory: after a restart `record.stop` says it is not recording, and
    /// the device is there as it was.
    @Test func aRestartLosesTheRecordingAndSaysSo() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        _ = try daemon.call("record.start")
        _ = try daemon.call("event", ["type": "lock"])
        let before = try daemon.trace(of: "default")
        daemon.kill(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        #expect(daemon.log.contains("device default: its recording since seq"), "said in the log at shutdown")
        try daemon.start()
        let lost = daemon.error(calling: "record.stop")
        #expect(lost?.data?["reason"] == "notRecording")
        #expect(lost?.message.contains("one started before clarityd last started is lost") == true)
        #expect(try daemon.trace(of: "default") == before)
        _ = try daemon.call("record.start")
    }

    /// A `fails` step passes when its input fails as it says, and fails the schedule otherwise.
    @Test func aFailingStepMustFailAsItSays() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        func run(_ step: JSONValue) throws -> JSONValue {
            try daemon.call("scenario.run", ["scenario": ["steps": [step]]])
        }
        let focusEnd: JSONValue = ["name": "focus.end", "args": [:]]
        #expect(try run(["intent": focusEnd, "fails": ["refused": "noFocusSession"]])["passed"] == true)
        let other = try run(["intent": focusEnd, "fails": ["refused": "noChallenge"]])
        #expect(other["passed"] == false)
        let failure = try #require(other["failures"]?.arrayValue?.first)
        #expect(failure["step"] == "steps[0]")
        #expect(failure["message"]?.stringValue?.hasPrefix("failed otherwise than the step expects (refused (noChallenge)):") == true)
        let through = try run(["event": ["type": "lock"], "fails": ["invalidArgument": "app"]])
        #expect(
            through["failures"]?.arrayValue?.first?["message"] == "expected it to fail (invalid argument app), but it went through")
    }

    /// The user's way: `clarityctl record start`, the session, `record stop -o FILE`, `run FILE`.
    @Test func clarityctlRecordsASessionToAFileThatRunReplays() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let file = daemon.directory.appendingPathComponent("odd.json").path
        for words in [
            ["intent", "selectApps", "apps=[\"\(Self.instagram)\"]"], ["record", "start"],
            ["event", "app.open", "--app", Self.instagram], ["advance", "10m"],
        ] {
            let ran = daemon.runCtl(words)
            #expect(ran.status == 0, "\(words): \(ran.stderr)")
        }
        let stop = daemon.runCtl(["record", "stop", "-o", file, "--name", "odd"])
        #expect(stop.status == 0, "\(stop.stderr)")
        #expect(stop.stdout.hasPrefix("wrote 3 steps to \(file) (scenario \"odd\")\n"))
        #expect(stop.stdout.contains("\n  history:  1 step (steps[0]) rebuild device default as it was at seq "))
        #expect(stop.stdout.hasSuffix("\nreplay it: clarityctl run \(file)\n"))
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("\n    {\"event\":{\"app\":\"\(Self.instagram)\",\"type\":\"app.open\"}},\n    {\"advance\":600}\n  ]\n}\n"))

        let run = daemon.runCtl(["scenario", "run", file])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("result:   passed\n"))
        let liveEvents = try daemon.trace(of: "default").count
        #expect(run.stdout.contains("\ntrace:    \(liveEvents) events\n"))

        let notRecording = daemon.runCtl(["record", "stop", "-o", file])
        #expect(notRecording.status == 1)
        #expect(notRecording.stderr.hasPrefix("error -32009: Recording: device default is not being recorded"))
        for (words, message) in [
            (["record", "stop", "-o", "/nonexistent/dir/x.json"], "-o /nonexistent/dir/x.json: no directory /nonexistent/dir to write it in"),
            (["record", "start", "extra"], "unexpected argument 'extra'"),
            (["record", "stop", "--name"], "option --name needs a value"),
            (["record"], "'record' needs a command"),
        ] {
            let refused = daemon.runCtl(words)
            #expect(refused.status == 2, "\(words)")
            #expect(refused.stderr.hasPrefix("clarityctl: \(message)\n"), "\(words): \(refused.stderr)")
        }
    }
}
