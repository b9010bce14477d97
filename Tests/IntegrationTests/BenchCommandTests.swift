import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

/// `clarityctl bench` against a real daemon: what it reports, and that it leaves no device behind.
@Suite struct BenchCommandTests {
    @Test func deviceWorkloadsSpreadOverTheDevicesMadeForTheRunWhichAreRemovedAfter() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let devicesBefore = try daemon.call("device.list").arrayValue?.count

        let run = daemon.runCtl(["--json", "bench", "-t", "event,store", "--devices", "4", "-c", "8", "-n", "200"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let results = try JSONWire.decode(JSONValue.self, from: Data(run.stdout.utf8))["results"]?.arrayValue ?? []
        #expect(results.map { $0["method"] } == ["event", "store.set"])
        for result in results {
            #expect(result["devices"] == 4)
            #expect(result["requests"] == 200)
            #expect(result["clients"] == 8)
            #expect(result["errors"] == 0)
        }
        #expect(try daemon.call("device.list").arrayValue?.count == devicesBefore)

        let text = daemon.runCtl(["bench", "-t", "event", "--devices", "2", "-c", "2", "-n", "10"])
        #expect(text.stdout.hasPrefix("event: 10 requests, 2 clients, 2 devices, pipeline 1: "), "\(text.stdout)")
    }

    @Test func devicesAndDeviceTogetherAreAUsageError() {
        let run = Clarityctl.run(["--socket", "/nonexistent/d.sock", "--device", "mine", "bench", "--devices", "3"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--devices creates its own devices: give it or --device, not both"), "\(run.stderr)")
        let zero = Clarityctl.run(["--socket", "/nonexistent/d.sock", "bench", "--devices", "0"])
        #expect(zero.status == 2)
        #expect(zero.stderr.contains("--devices"), "\(zero.stderr)")
    }
}
