import ControlProtocol
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A copy of IntegrationTests/Support/DaemonProcess.swift, trimmed to what the fuzzer uses (a test
/// target cannot import another): no `call`, `sendRaw` or `runCtl`. One change: an exit is also
/// seen in `/proc` (and the daemon reaped) when Foundation does not see it, and
/// ``waitForExit(timeout:)`` never waits forever. A crashing daemon starts `swift-backtrace`, which
/// inherits the socket by which Foundation notices the exit (swift-corelibs-foundation issue
/// 4795); when that backtracer hangs, as it has done here, the termination handler never runs.
///
/// A `clarityd` started for one test: the built binary, on a socket and state directory of its
/// own under a short `/tmp` path (a socket path must fit `sun_path`), working directory in that
/// temporary directory so no repository config is picked up. Stopped and cleaned up by ``stop()``
/// or when released.
///
/// Usable from XCTest and Swift Testing alike; nothing here depends on either.
final class DaemonProcess {
    /// Why the daemon did not come up, with its log.
    struct StartFailure: Error, CustomStringConvertible {
        let reason: String
        let log: String
        var description: String { "\(reason)\n--- clarityd log ---\n\(log)" }
    }

    let directory: URL
    let socketPath: String
    let stateDirectory: String
    let arguments: [String]
    private var process: Process?
    /// Left when the current process has exited (`waitUntilExit()` can hang on Linux when
    /// called from a Swift concurrency thread).
    private var exited = DispatchGroup()

    /// Starts `clarityd --socket … --state-dir …` plus `arguments`; with `config`, also
    /// `--config` pointing at that JSON written to the temporary directory.
    init(arguments: [String] = [], config: JSONValue? = nil) throws {
        var template = Array("/tmp/cd-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else {
            throw StartFailure(reason: "mkdtemp failed: \(String(cString: strerror(errno)))", log: "")
        }
        directory = URL(fileURLWithPath: String(cString: created))
        socketPath = directory.appendingPathComponent("d.sock").path
        stateDirectory = directory.appendingPathComponent("state").path
        var arguments = ["--socket", socketPath, "--state-dir", stateDirectory] + arguments
        if let config {
            let configURL = directory.appendingPathComponent("clarityd.json")
            try JSONWire.encode(config).write(to: configURL)
            arguments += ["--config", configURL.path]
        }
        self.arguments = arguments
        try start()
    }

    deinit {
        stop()
    }

    /// Launches the daemon (again, after it exited: same socket and state directory) and waits
    /// until its socket accepts a connection, at most `timeout` seconds.
    func start(timeout: Double = 10) throws {
        let process = Process()
        process.executableURL = BuildProducts.executable("clarityd")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let log = try FileHandle(forWritingTo: logURL(creating: true))
        defer { try? log.close() }
        log.seekToEndOfFile()
        process.standardOutput = log
        process.standardError = log
        let exited = DispatchGroup()
        exited.enter()
        process.terminationHandler = { _ in exited.leave() }
        try process.run()
        self.process = process
        self.exited = exited
        reapedStatus = nil
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if (try? RawConnection(path: socketPath, receiveTimeout: 1)) != nil { return }
            guard exited.wait(timeout: .now()) == .timedOut else {
                throw StartFailure(reason: "clarityd exited with status \(process.terminationStatus)", log: self.log)
            }
            usleep(20_000)
        }
        throw StartFailure(reason: "clarityd did not accept connections on \(socketPath) within \(Int(timeout)) s", log: self.log)
    }

    /// What the daemon wrote to stdout and stderr so far.
    var log: String {
        (try? String(contentsOf: logURL(creating: false), encoding: .utf8)) ?? ""
    }

    var processIdentifier: Int32 { process?.processIdentifier ?? 0 }

    /// A new connection of one's own, for tests that need several or hold one open.
    func connect(receiveTimeout: Double = 10) throws -> RawConnection {
        try RawConnection(path: socketPath, receiveTimeout: receiveTimeout)
    }

    /// Whether the daemon process is still running.
    var isRunning: Bool {
        process != nil && exited.wait(timeout: .now()) == .timedOut && !reapIfExited()
    }

    /// The exit status of a daemon reaped here, not by Foundation.
    private var reapedStatus: Int32?

    /// Whether the daemon has exited though Foundation has not noticed: its `/proc` entry is a
    /// zombie, which is then reaped here. Always false where there is no `/proc`. (An entry that
    /// is gone was reaped by Foundation, whose termination handler follows.)
    private func reapIfExited() -> Bool {
        if reapedStatus != nil { return true }
        #if os(Linux)
            guard let process else { return false }
            let pid = process.processIdentifier
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let state = stat.split(separator: ")").last?.split(separator: " ").first, state == "Z" else { return false }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return false }
            reapedStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            return true
        #else
            return false
        #endif
    }

    /// Sends `signal` to the daemon.
    func kill(_ signal: Int32 = SIGTERM) {
        guard let process, isRunning else { return }
        _ = sendSignal(process.processIdentifier, signal)
    }

    /// Waits for the daemon to exit and returns its exit status, or 128 + the signal that ended
    /// it. After `timeout` seconds it is killed with SIGKILL (so a hang shows as 137); -1 when even
    /// that is not seen to end it within 30 s.
    @discardableResult
    func waitForExit(timeout: Double = 10) -> Int32 {
        guard let process else { return 0 }
        func wait(_ seconds: Double) -> Bool {
            let deadline = Date(timeIntervalSinceNow: seconds)
            repeat {
                if exited.wait(timeout: .now() + 0.05) == .success { return true }
                if reapIfExited() { return true }
            } while Date() < deadline
            return false
        }
        if !wait(timeout) {
            _ = sendSignal(process.processIdentifier, SIGKILL)
            if !wait(30) { return -1 }
        }
        if let reapedStatus { return reapedStatus }
        return process.terminationReason == .uncaughtSignal
            ? 128 + process.terminationStatus : process.terminationStatus
    }

    /// Stops the daemon (SIGTERM, then SIGKILL after 5 s) and removes its temporary directory
    /// (unless asked to keep it, for a post-mortem).
    func stop(keepingDirectory: Bool = false) {
        if isRunning {
            kill(SIGTERM)
            waitForExit(timeout: 5)
        }
        if !keepingDirectory { try? FileManager.default.removeItem(at: directory) }
    }

    private func logURL(creating: Bool) -> URL {
        let url = directory.appendingPathComponent("clarityd.log")
        if creating, !FileManager.default.fileExists(atPath: url.path) {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        }
        return url
    }
}

#if canImport(Glibc)
    private let sendSignal = Glibc.kill
#else
    private let sendSignal = Darwin.kill
#endif
