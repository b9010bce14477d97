import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

/// A restart takes seconds whatever was simulated (docs/decisions.md, Persistence): a device
/// whose replay would run too long is snapshotted, devices are restored in the background while
/// the daemon serves, and a snapshot keeps the trace, so neither a compaction nor a restart after
/// one loses an event a client could ask for.
@Suite struct RestartBoundTests {
    static let instagram = "com.burbn.instagram"

    /// A daily 15-minute activity with Instagram open, and a month of virtual time at a go: few
    /// journal lines, many scheduler steps (66 one-year advances journalled in 10 KB took 25 s
    /// to replay).
    private func simulateMonths(_ months: Int, on daemon: DaemonProcess) throws {
        _ = try daemon.call(
            "activity.start",
            [
                "name": "daily",
                "schedule": ["intervalStart": ["hour": 9], "intervalEnd": ["hour": 9, "minute": 15], "repeats": true],
                "events": ["e": ["applications": [.string(Self.instagram)], "threshold": ["minute": 5]]],
            ])
        _ = try daemon.call("event", ["type": "app.open", "app": .string(Self.instagram)])
        for _ in 0..<months { _ = try daemon.call("clock.advance", ["seconds": .int(30 * 86_400)]) }
    }

    private func look(_ daemon: DaemonProcess) throws -> [JSONValue] {
        try ["device.state", "activity.list", "trace.get", "notifications.list"].map { try daemon.call($0) }
    }

    @Test func aDeviceWhoseReplayWouldRunTooLongIsSnapshottedAndRestartsUnchanged() throws {
        let daemon = try DaemonProcess(config: ["maxReplaySteps": 20_000])
        defer { daemon.stop() }
        try simulateMonths(12, on: daemon)
        let seen = try look(daemon)
        let files = try FileManager.default.contentsOfDirectory(atPath: daemon.stateDirectory + "/devices")
        #expect(files.contains { $0.hasSuffix(".snapshot") }, "\(files)")
        #expect(daemon.log.contains("journal compacted into snapshot"))
        daemon.kill(SIGKILL)
        #expect(daemon.waitForExit() == 137)
        try daemon.start()
        #expect(try look(daemon) == seen, "a restart after the compactions shows what one before them showed")
        let replayed = try #require(
            daemon.log.split(separator: "\n").last { $0.contains("device default restored") }, "\(daemon.log)")
        let lines = replayed.split(separator: ",").last.flatMap { Int($0.split(separator: " ").first ?? "") } ?? 99
        #expect(lines < 12, "\(replayed)")
    }

    /// With the bound off (`maxReplaySteps: 0`) every line is replayed, in the background: the
    /// socket is there at once, `daemon.status` lists the devices still restoring, and a request
    /// for one waits until it is back.
    @Test func devicesAreRestoredInTheBackgroundAndRequestsWaitForThem() throws {
        let daemon = try DaemonProcess(config: ["maxReplaySteps": 0])
        defer { daemon.stop() }
        try simulateMonths(6, on: daemon)
        _ = try daemon.call("device.create", ["device": "small"])
        let seen = try look(daemon)
        daemon.kill(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        try daemon.start()
        let status = try daemon.call("daemon.status")
        #expect(status["devices"] == ["default", "small"])
        #expect(status["restoring"]?.arrayValue != nil)
        #expect(try look(daemon) == seen)
        #expect(try daemon.call("daemon.status")["restoring"] == [])
        #expect(daemon.log.contains("restoring 2 devices in the background"))
        #expect(daemon.log.contains("every device is restored"))
        #expect(!daemon.log.contains("compacted"))
    }

    /// With `compactJournalAfter: 10` a subscriber that reads promptly got `trace.dropped` for the
    /// write that set off each compaction, and `trace.get` since 0 answered `[]`.
    @Test func aSubscriberAndTraceGetMissNothingAcrossCompactions() throws {
        let daemon = try DaemonProcess(config: ["compactJournalAfter": 10])
        defer { daemon.stop() }
        let subscriber = try daemon.connect()
        #expect(try subscriber.call(id: 1, "subscribe", ["kinds": ["store.write"]])?["result"]?["ok"] == true)
        for value in 1...35 { _ = try daemon.call("store.set", ["key": "k", "value": .int(value)]) }
        var values: [Int] = []
        while values.count < 35, let line = try subscriber.readLine() {
            let message = try JSONWire.decode(JSONValue.self, from: Data(line.utf8))
            #expect(message["method"] == "trace", "\(line)")
            if let value = message["params"]?["value"]?.intValue { values.append(value) }
        }
        #expect(values == Array(1...35))
        #expect(daemon.log.components(separatedBy: "journal compacted").count - 1 == 3)
        let trace = try #require(daemon.call("trace.get", ["since": 0]).arrayValue)
        #expect(trace.first?["seq"] == 1)
        #expect(trace.filter { $0["kind"] == "store.write" && $0["key"] == "k" }.map { $0["value"]?.intValue } == (1...35).map { $0 })
    }
}
