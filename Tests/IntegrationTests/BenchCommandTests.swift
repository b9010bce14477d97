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

    /// `--redis`: the same clients send redis's `PING` to another server, which bench reports as
    /// it reports the daemon; an error reply (`-ERR`) counts as an error, as a JSON-RPC error does.
    @Test func redisPingGoesThroughTheSameClients() throws {
        let redis = try PingServer(reply: "+PONG")
        let run = Clarityctl.run(["--socket", "/nonexistent/d.sock", "--json", "bench", "--redis", redis.path, "-c", "4", "-P", "16", "-n", "1000"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let result = try JSONWire.decode(JSONValue.self, from: Data(run.stdout.utf8))["results"]?.arrayValue?.first
        #expect(result?["method"] == "redis PING")
        #expect(result?["requests"] == 1000)
        #expect(result?["pipeline"] == 16)
        #expect(result?["errors"] == 0)

        let refusing = try PingServer(reply: "-ERR unknown command")
        let failed = Clarityctl.run(["--socket", "/nonexistent/d.sock", "bench", "--redis", refusing.path, "-c", "2", "-n", "10"])
        #expect(failed.status == 1)
        #expect(failed.stdout.contains("10 error responses, e.g.:\n    -ERR unknown command"), "\(failed.stdout)")

        let notPing = Clarityctl.run(["--socket", "/nonexistent/d.sock", "bench", "--redis", redis.path, "-t", "event"])
        #expect(notPing.status == 2)
        #expect(notPing.stderr.contains("--redis measures redis's PING only: give it with -t ping"), "\(notPing.stderr)")
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
