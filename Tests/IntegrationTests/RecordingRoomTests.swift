import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

/// What a recording may hold and how it is handed over (issue 38, item 6): its steps are bounded
/// in bytes (`maxRecordingBytes`), a request past the bound is refused before it runs — the
/// recording keeping everything before it — and a recording clarityd writes to a file itself
/// (`record.stop`'s `path`) is the file clarityctl writes, and replays.
@Suite struct RecordingRoomTests {
    /// An address book of `count` contacts for device `device`: a `contacts.set` event.
    private func contacts(_ device: String, _ count: Int, round: Int) -> JSONValue {
        [
            "device": .string(device), "type": "contacts.set",
            "contacts": .array(
                (0..<count).map { ["id": .string("c\(round)-\($0)"), "name": .string("Contact \($0) of round \(round)")] }),
        ]
    }

    /// The 150 × 1 MB session of the issue, shrunk: with 25 000 bytes for recordings, the fourth
    /// address book of ~6 700 bytes is refused, said so and not run; the recording holds the
    /// three before it and replays to the device's trace; once it stops, the request goes through.
    @Test func aRequestTheRecordingHasNoRoomForIsRefusedAndNothingIsLost() throws {
        let daemon = try DaemonProcess(config: ["maxRecordingBytes": 25_000])
        defer { daemon.stop() }
        _ = try daemon.call("device.create", ["device": "lab"])
        _ = try daemon.call("record.start", ["device": "lab"])
        for round in 0..<3 { _ = try daemon.call("event", contacts("lab", 150, round: round)) }
        let before = try daemon.trace(of: "lab")
        let state = try daemon.call("device.state", ["device": "lab"])

        let refused = try #require(daemon.error(calling: "event", contacts("lab", 150, round: 3)))
        #expect(refused.code == -32009)
        #expect(refused.data?["reason"] == "tooLarge" && refused.data?["method"] == "event" && refused.data?["limit"] == 25_000)
        #expect((refused.data?["bytes"]?.intValue ?? 0) > 25_000)
        #expect(refused.message.contains("has no room for this event") && refused.message.contains("It was not run"))
        #expect(try daemon.trace(of: "lab") == before, "not run")
        #expect(try daemon.call("device.state", ["device": "lab"]) == state)
        _ = try daemon.call("event", ["device": "lab", "type": "lock"])

        let stop = try daemon.call("record.stop", ["device": "lab"])
        #expect(stop["counts"]?["recorded"] == 4)
        let live = try daemon.trace(of: "lab")
        let run = try daemon.call("scenario.run", ["scenario": try #require(stop["scenario"])])
        #expect(run["passed"] == true)
        #expect(run["trace"]?.arrayValue == live)
        #expect(daemon.error(calling: "event", contacts("lab", 150, round: 3)) == nil, "unrecorded, it runs")
    }

    /// Clients that never read hold the answers they asked for up to the daemon's cap: a
    /// recording over 1 MiB is then refused at `record.stop` (the dispatcher would withhold its
    /// answer) and goes on, and `clarityctl record stop -o FILE` has clarityd write FILE instead.
    @Test func aRecordingTooLargeToAnswerIsWrittenByClarityd() throws {
        let daemon = try DaemonProcess(config: ["maxRequestBytes": 4_000_000])
        defer { daemon.stop() }
        _ = try daemon.call("record.start")
        _ = try daemon.call("event", contacts("default", 30_000, round: 0))
        // Another device's 1.2 MB value, asked for and never read, up to the daemon's cap.
        _ = try daemon.call("device.create", ["device": "hoard"])
        _ = try daemon.call("store.set", ["device": "hoard", "key": "blob", "value": .string(String(repeating: "x", count: 1_200_000))])
        var hoarders: [RawConnection] = []
        for _ in 0..<16 {
            let hoarder = try daemon.connect()
            for id in 1...4 { try hoarder.request(id: id, "store.get", ["device": "hoard", "key": "blob"]) }
            hoarders.append(hoarder)
        }
        #expect(
            try daemon.eventually {
                let answers = try daemon.call("daemon.status")["answers"]
                return (answers?["unsent"]?.intValue ?? 0) > (answers?["limit"]?.intValue ?? 0) - 1_300_000
            })
        let refused = daemon.error(calling: "record.stop")
        #expect(refused?.data?["reason"] == "tooLarge" && refused?.data?["limit"] == .int(64 << 20))
        #expect(refused?.message.contains("answers clients have not read") == true && refused?.message.contains("the recording goes on") == true)

        let file = daemon.directory.appendingPathComponent("big.json").path
        let stop = daemon.runCtl(["record", "stop", "-o", file])
        #expect(stop.status == 0, "\(stop.stderr)")
        #expect(stop.stdout.hasPrefix("wrote 1 step to \(file) ("))
        #expect(stop.stdout.contains("bytes, too large to answer: written by clarityd)\n"))
        hoarders.removeAll()
        let scenario = try JSONValue(parsing: Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(scenario["steps"]?.arrayValue?.count == 1)
        #expect(try daemon.call("scenario.run", ["scenario": scenario])["trace"]?.arrayValue == (try daemon.trace(of: "default")))
    }

    /// `record.stop` with `path`: clarityd writes the scenario there, laid out as clarityctl
    /// lays it out, and answers where and how large; a path it cannot write is refused and the
    /// recording goes on.
    @Test func clarityWritesTheScenarioToAFileThatReplays() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        _ = try daemon.call("intent", ["name": "selectApps", "args": ["apps": ["com.burbn.instagram"]]])
        _ = try daemon.call("record.start")
        _ = try daemon.call("event", ["type": "app.open", "app": "com.burbn.instagram"])
        _ = try daemon.call("clock.advance", ["seconds": 600])
        let live = try daemon.trace(of: "default")

        #expect(daemon.error(calling: "record.stop", ["path": "odd.json"])?.data?["field"] == "path", "relative")
        let missing = daemon.directory.appendingPathComponent("none/odd.json").path
        let unwritable = daemon.error(calling: "record.stop", ["path": .string(missing)])
        #expect(unwritable?.code == -32602 && unwritable?.data?["field"] == "path")
        #expect(unwritable?.message.hasSuffix("cannot write \(missing): No such file or directory; the recording goes on") == true)
        #expect(daemon.error(calling: "record.start")?.data?["reason"] == "recording", "it went on")
        let connection = try daemon.connect()
        try connection.send("{\"jsonrpc\":\"2.0\",\"method\":\"record.stop\"}\n")
        #expect(try connection.call(id: 1, "daemon.ping")?["result"] != nil)
        #expect(daemon.error(calling: "record.start")?.data?["reason"] == "recording", "a notification hands it to nobody")

        let file = daemon.directory.appendingPathComponent("odd.json").path
        let stop = try daemon.call("record.stop", ["path": .string(file), "name": "odd"])
        #expect(stop["scenario"] == nil && stop["path"] == .string(file))
        #expect(stop["counts"] == ["history": 1, "recorded": 2, "events": 1, "intents": 0, "advances": 1, "failed": 0])
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(stop["bytes"] == .int(text.utf8.count))
        #expect(text.hasPrefix("{\n  \"name\": \"odd\",\n  \"device\": \"default\",\n  \"app\": \"clarity\",\n"))
        #expect(text.hasSuffix("  \"steps\": [\n    {\"intent\":{\"args\":{\"apps\":[\"com.burbn.instagram\"]},\"name\":\"selectApps\"}},\n    {\"event\":{\"app\":\"com.burbn.instagram\",\"type\":\"app.open\"}},\n    {\"advance\":600}\n  ]\n}\n"))
        let run = try daemon.call("scenario.run", ["scenario": try JSONValue(parsing: Data(text.utf8))])
        #expect(run["passed"] == true)
        #expect(run["trace"]?.arrayValue == live)
        #expect(daemon.error(calling: "record.stop")?.data?["reason"] == "notRecording")
    }
}
