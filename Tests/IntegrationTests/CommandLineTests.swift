import ControlProtocol
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `clarityctl` as a user runs it against a real daemon: what it prints, where, and its exit status.
@Suite struct CommandLineTests {
    static let timeoutMessage =
        "clarityctl: clarityd did not answer within 0.5 s (is it stopped?); --timeout SECONDS waits longer, 0 waits forever\n"

    @Test func aStoppedDaemonTimesOutWithExitStatus3AndAnswersOnceContinued() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }

        daemon.kill(SIGSTOP)
        let stopped = Clarityctl.run(["--socket", daemon.socketPath, "--timeout", "0.5", "ping"], timeout: 30)
        daemon.kill(SIGCONT)
        #expect(stopped.status == 3)
        #expect(stopped.stderr == Self.timeoutMessage)
        #expect(stopped.stdout == "")

        let ping = daemon.runCtl(["--timeout", "0.5", "ping"])
        #expect(ping.status == 0, "stderr: \(ping.stderr)")
        #expect(ping.stdout == "version: \(ClarityProtocol.version)\npong:    true\n")
    }

    @Test(arguments: ["-1", "abc", "1e400", "0x10", ""])
    func aTimeoutThatIsNotSecondsIsAUsageError(value: String) {
        let result = Clarityctl.run(["--socket", "/nonexistent/x.sock", "--timeout", value, "ping"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("clarityctl: option --timeout must be a number of seconds (0 waits forever), got '\(value)'\n"))
    }
}
