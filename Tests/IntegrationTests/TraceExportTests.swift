import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `trace.export` and `clarityctl trace export` / `watch` against a real daemon.
@Suite struct TraceExportTests {
    private static let instagram = "com.burbn.instagram"

    /// Selects Instagram, opens it and lets 10 minutes pass: the friction path to the shield.
    private func frictionRun(_ daemon: DaemonProcess, device: String = "default") throws {
        let target: JSONValue = .string(device)
        _ = try daemon.call("intent", ["device": target, "name": "selectApps", "args": ["apps": [.string(Self.instagram)]]])
        _ = try daemon.call("event", ["device": target, "type": "app.open", "app": .string(Self.instagram)])
        _ = try daemon.call("clock.advance", ["device": target, "seconds": 600])
    }

    private func processNames(_ trace: JSONValue) -> [String] {
        (trace["traceEvents"]?.arrayValue ?? []).filter { $0["ph"] == "M" && $0["name"] == "process_name" }
            .compactMap { $0["args"]?["name"]?.stringValue }
    }

    @Test func theExportIsAPerfettoTraceOfTheRun() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        try frictionRun(daemon)
        let trace = try daemon.call("trace.export", ["format": "perfetto"])
        #expect(trace["displayTimeUnit"] == "ms")
        let last = try daemon.call("trace.get", ["last": 1]).arrayValue?.first?["seq"]
        #expect(trace["otherData"]?["lastSeq"] == last)
        #expect(trace["otherData"]?["device"] == "default")
        let names = processNames(trace)
        for name in ["clarity.app", "springBoard", "deviceActivity", "clarity.monitor #3", "clarity.shieldConfiguration #1"] {
            #expect(names.contains(name), "track \(name)")
        }
        let events = try #require(trace["traceEvents"]?.arrayValue)
        let callback = events.first { $0["ph"] == "X" && $0["name"] == "eventDidReachThreshold" }
        #expect(callback?["args"]?["kind"] == "extension.callback")
        let starts = events.filter { $0["ph"] == "s" }.compactMap { $0["id"] }
        let ends = events.filter { $0["ph"] == "f" }.compactMap { $0["id"] }
        #expect(!starts.isEmpty && Set(starts) == Set(ends), "every arrow has both ends")

        let newest = try daemon.call("trace.export", ["last": 3])
        #expect(newest["otherData"]?["events"] == 3)
    }

    @Test func badParamsAreRefusedByName() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        for (params, field) in [
            (["format": "chrome"], "format"), (["last": 100_001], "last"), (["since": -1], "since"),
            (["limit": 1, "last": 1], "last"), (["formats": "perfetto"], "formats"),
        ] as [(JSONValue, String)] {
            let error = #expect(throws: RPCError.self) { try daemon.call("trace.export", params) }
            #expect(error?.code == RPCError.Code.invalidParams)
            #expect(error?.data?["field"] == .string(field))
        }
        let unknown = #expect(throws: RPCError.self) { try daemon.call("trace.export", ["device": "nowhere"]) }
        #expect(unknown?.code == RPCError.Code.noSuchDevice)
    }

    @Test func clarityctlWritesTheExportToAFileOrPrintsIt() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        try frictionRun(daemon)
        let file = daemon.directory.appendingPathComponent("run.json")
        let written = daemon.runCtl(["trace", "export", "-o", file.path])
        #expect(written.status == 0, "stderr: \(written.stderr)")
        #expect(written.stdout.hasPrefix("wrote 36 trace events (seq 1–36) to \(file.path)"))
        let saved = try JSONWire.decode(JSONValue.self, from: Data(contentsOf: file))
        #expect(processNames(saved).contains("clarity.monitor #3"))

        let printed = daemon.runCtl(["trace", "export"])
        #expect(printed.status == 0)
        #expect(try JSONWire.decode(JSONValue.self, from: Data(printed.stdout.utf8)) == saved)

        let both = daemon.runCtl(["trace", "export", "--limit", "1", "--last", "1"])
        #expect(both.status == 2)
        #expect(both.stderr.hasPrefix("clarityctl: --limit and --last cannot be combined\n"))
        let missing = daemon.runCtl(["trace", "export", "-o"])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("clarityctl: option -o needs a value\n"))
        let nowhere = daemon.runCtl(["trace", "export", "--device", "nowhere"])
        #expect(nowhere.status == 1)
        #expect(nowhere.stderr.hasPrefix("error -32000: No such device: nowhere"))
    }

    /// Starts `clarityctl watch arguments…` and returns it once it is seen to print: the device
    /// is locked and unlocked until an `app.state` line comes.
    private func watching(_ daemon: DaemonProcess, device: String = "default", _ arguments: [String] = []) throws -> RunningCtl {
        let watch = try RunningCtl(socket: daemon.socketPath, ["watch", "--device", device] + arguments)
        for round in 0..<100 {
            _ = try daemon.call("event", ["device": .string(device), "type": round % 2 == 0 ? "lock" : "unlock"])
            if watch.readLine(containing: "app.state", timeout: 0.2) != nil { return watch }
        }
        Issue.record("clarityctl watch printed nothing")
        return watch
    }

    @Test func watchPrintsEachEventAsItHappensUntilCtrlC() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let watch = try watching(daemon)
        _ = try daemon.call("event", ["type": "unlock"])
        _ = try daemon.call("clock.advance", ["seconds": 90])
        let line = try #require(watch.readLine(containing: "clock.advance"))
        let columns = line.split(separator: " ", omittingEmptySubsequences: true)
        #expect(columns.count == 5 && columns[2] == "clock.advance" && columns[3] == "clock" && columns[4] == "seconds=90")
        #expect(!line.contains("device="))
        watch.signal(SIGINT)
        #expect(watch.wait() == 0)
    }

    @Test func watchJSONPrintsTheNotificationsAndSelectsKinds() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let watch = try watching(daemon, ["--json", "--kind", "app.state", "--kind", "clock"])
        _ = try daemon.call("clock.advance", ["seconds": 5])
        let line = try #require(watch.readLine(containing: "clock.advance"))
        let notification = try JSONWire.decode(JSONValue.self, from: Data(line.utf8))
        #expect(notification["method"] == "trace")
        #expect(notification["params"]?["seconds"] == 5)
        #expect(notification["params"]?["device"] == "default")
        watch.signal(SIGINT)
        #expect(watch.wait() == 0)
    }

    @Test func watchEndsWhenItsDeviceIsRemovedOrTheDaemonGoesAway() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        _ = try daemon.call("device.create", ["device": "lab"])
        let lab = try watching(daemon, device: "lab")
        let other = try watching(daemon)
        _ = try daemon.call("device.remove", ["device": "lab"])
        #expect(lab.wait() == 0)
        #expect(lab.stderr == "clarityctl: device lab was removed; the watch ends\n")

        // The daemon stopping closes the device and says so (`trace.ended`, `closed`) before it
        // exits; it could not while the shutdown blocked the event loop (issue 39).
        _ = try daemon.call("daemon.shutdown")
        #expect(other.wait() == 0)
        #expect(other.stderr == "clarityctl: device default was closed; the watch ends\n")
    }

    @Test func watchArgumentsAreChecked() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let noKind = daemon.runCtl(["watch", "--kind"])
        #expect(noKind.status == 2)
        #expect(noKind.stderr.hasPrefix("clarityctl: option --kind needs a value\n"))
        let extra = daemon.runCtl(["watch", "now"])
        #expect(extra.status == 2)
        #expect(extra.stderr.hasPrefix("clarityctl: unexpected argument 'now'\n"))
        let nowhere = daemon.runCtl(["watch", "--device", "nowhere"])
        #expect(nowhere.status == 1)
        #expect(nowhere.stderr.hasPrefix("error -32000: No such device: nowhere"))
    }
}
