import ControlProtocol
import DaemonTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The App Group race detector in plain daemon use: switched on with `device.config` or in
/// clarityd.json, the main app's reads are traced (`store.read`), so a `race` could name them;
/// Clarity run request by request loses no update (its one key written by two processes is
/// reset without a read), and the detector says so — the lost updates it finds come from
/// interleavings, in scenarios (RaceDetectorTests has each rule).
@Suite struct RaceDetectorDaemonTests {
    private func setWiFiGate(_ daemon: DaemonProcess, device: JSONValue) throws -> JSONValue {
        try daemon.call("intent", ["device": device, "name": "setWiFiGate", "args": ["enabled": true]])
    }

    /// The main app sets `wifiGateEnabled` and reads it (the gate check); an outside write
    /// changes it; the next intent sets it again without reading it first: a plain write.
    private func overwriteAnOutsideWrite(_ daemon: DaemonProcess, device: JSONValue = "default") throws {
        _ = try setWiFiGate(daemon, device: device)
        _ = try daemon.call("store.set", ["device": device, "key": "wifiGateEnabled", "value": false])
        _ = try setWiFiGate(daemon, device: device)
    }

    private func trace(_ daemon: DaemonProcess, device: JSONValue = "default", kinds: [JSONValue]) throws -> [JSONValue] {
        try #require(daemon.call("trace.get", ["device": device, "kinds": .array(kinds)]).arrayValue)
    }

    private func mainAppReads(_ daemon: DaemonProcess, device: JSONValue = "default") throws -> Int {
        try trace(daemon, device: device, kinds: ["store.read"]).filter { $0["actor"] == "clarity.app" }.count
    }

    @Test func deviceConfigSwitchesItOnAndAPlainWriteIsNoRace() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        try overwriteAnOutsideWrite(daemon)
        #expect(try mainAppReads(daemon) == 0, "off by default: the main app's reads are not traced")

        let config = try daemon.call("device.config", ["config": ["raceDetector": true]])
        #expect(config["raceDetector"] == true)
        try overwriteAnOutsideWrite(daemon)
        let reads = try trace(daemon, kinds: ["store.read"]).filter { $0["actor"] == "clarity.app" }
        #expect(reads.contains { $0["key"] == "wifiGateEnabled" }, "\(reads)")
        #expect(try trace(daemon, kinds: ["race"]).isEmpty, "the second intent never read the key before writing it")

        let whole = try #require(daemon.call("trace.get").arrayValue)
        daemon.kill(SIGKILL)
        #expect(daemon.waitForExit() == 137)
        try daemon.start()
        #expect(try daemon.call("trace.get").arrayValue == whole, "the journal replays the detector's trace exactly")
        try overwriteAnOutsideWrite(daemon)
        #expect(try mainAppReads(daemon) > reads.count, "still on after the restart")

        _ = try daemon.call("device.config", ["config": ["raceDetector": false]])
        let before = try mainAppReads(daemon)
        try overwriteAnOutsideWrite(daemon)
        #expect(try mainAppReads(daemon) == before, "off again: no read traced")
        #expect(try trace(daemon, kinds: ["race"]).isEmpty)
    }

    @Test func claritydJsonSwitchesItOnForEveryDevice() throws {
        let daemon = try DaemonProcess(config: ["raceDetector": true])
        defer { daemon.stop() }
        _ = try daemon.call("device.create", ["device": "second"])
        #expect(try daemon.call("device.config", ["device": "second"])["raceDetector"] == true)
        try overwriteAnOutsideWrite(daemon, device: "second")
        #expect(try mainAppReads(daemon, device: "second") > 0)
        #expect(try trace(daemon, device: "second", kinds: ["race"]).isEmpty)
        do {
            _ = try daemon.call("device.config", ["config": ["raceDetecter": true]])
            Issue.record("a misspelt field was accepted")
        } catch let error as RPCError {
            #expect(error.code == -32602)
            #expect(error.data?["field"] == "config.raceDetecter")
        }
    }
}
