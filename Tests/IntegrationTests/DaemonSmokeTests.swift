import ControlProtocol
import DaemonTestSupport
import Testing

/// The daemon starts, answers over its socket, and `clarityctl` reaches it with the exit
/// statuses scripts rely on.
@Suite struct DaemonSmokeTests {
    @Test func daemonAnswersPingAndClarityctlReportsExitStatuses() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }

        let pong = try daemon.call("daemon.ping")
        #expect(pong["pong"] == true)
        #expect(pong["version"] == .string(ClarityProtocol.version))

        let ping = daemon.runCtl(["ping"])
        #expect(ping.status == 0, "stderr: \(ping.stderr)")
        #expect(ping.stdout.contains(ClarityProtocol.version))

        let unreachable = daemon.runCtl(["--socket", "/nonexistent/x.sock", "ping"])
        #expect(unreachable.status == 3)
        #expect(unreachable.stderr.contains("/nonexistent/x.sock"))

        let badDuration = daemon.runCtl(["advance", "5x"])
        #expect(badDuration.status == 2)
        #expect(badDuration.stderr.contains("5x"))
    }
}
