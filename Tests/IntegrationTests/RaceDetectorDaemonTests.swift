import ControlProtocol
import DaemonTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The App Group race detector in plain daemon use: switched on with `device.config` or in
/// clarityd.json, its `race` events are in `trace.get` like every other effect.
@Suite struct RaceDetectorDaemonTests {
    private func setWiFiGate(_ daemon: DaemonProcess, device: JSONValue) throws -> JSONValue {
        try daemon.call("intent", ["device": device, "name": "setWiFiGate", "args": ["enabled": true]])
    }

    /// The main app reads `wifiGateEnabled` after setting it; an outside write changes it; the
    /// main app sets it again without reading: the outside value is lost.
    private func loseAnOutsideWrite(_ daemon: DaemonProcess, device: JSONValue = "default") throws {
        _ = try setWiFiGate(daemon, device: device)
        _ = try daemon.call("store.set", ["device": device, "key": "wifiGateEnabled", "value": false])
        _ = try setWiFiGate(daemon, device: device)
    }

    private func races(_ daemon: DaemonProcess, device: JSONValue = "default") throws -> [JSONValue] {
        try #require(daemon.call("trace.get", ["device": device, "kinds": ["race"]]).arrayValue)
    }

    @Test func deviceConfigSwitchesItOnAndTraceGetShowsTheRace() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        try loseAnOutsideWrite(daemon)
        #expect(try races(daemon).isEmpty, "off by default")

        let config = try daemon.call("device.config", ["config": ["raceDetector": true]])
        #expect(config["raceDetector"] == true)
        try loseAnOutsideWrite(daemon)
        let found = try races(daemon)
        #expect(found.count == 1)
        let race = try #require(found.first)
        #expect(race["actor"] == "clarity.app")
        #expect(race["suite"] == "group.com.clarity.focus")
        #expect(race["key"] == "wifiGateEnabled")
        #expect(race["otherActor"] == "outside")

        let trace = try #require(daemon.call("trace.get").arrayValue)
        func event(_ seq: JSONValue?) -> JSONValue? { trace.first { $0["seq"] == seq } }
        #expect(event(race["readSeq"])?["kind"] == "store.read")
        #expect(event(race["readSeq"])?["actor"] == "clarity.app")
        #expect(event(race["otherWriteSeq"])?["kind"] == "store.write")
        #expect(event(race["otherWriteSeq"])?["actor"] == "outside")
        #expect(event(race["writeSeq"])?["kind"] == "store.write")
        #expect(event(race["writeSeq"])?["actor"] == "clarity.app")

        daemon.kill(SIGKILL)
        #expect(daemon.waitForExit() == 137)
        try daemon.start()
        #expect(try daemon.call("trace.get").arrayValue == trace, "the journal replays the detector's trace exactly")
        try loseAnOutsideWrite(daemon)
        #expect(try races(daemon).count == 2, "still on after the restart")

        _ = try daemon.call("device.config", ["config": ["raceDetector": false]])
        try loseAnOutsideWrite(daemon)
        #expect(try races(daemon).count == 2, "off again: no new race")
    }

    @Test func claritydJsonSwitchesItOnForEveryDevice() throws {
        let daemon = try DaemonProcess(config: ["raceDetector": true])
        defer { daemon.stop() }
        _ = try daemon.call("device.create", ["device": "second"])
        #expect(try daemon.call("device.config", ["device": "second"])["raceDetector"] == true)
        try loseAnOutsideWrite(daemon, device: "second")
        #expect(try races(daemon, device: "second").count == 1)
        do {
            _ = try daemon.call("device.config", ["config": ["raceDetecter": true]])
            Issue.record("a misspelt field was accepted")
        } catch let error as RPCError {
            #expect(error.code == -32602)
            #expect(error.data?["field"] == "config.raceDetecter")
        }
    }
}
