import ControlProtocol
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `clarityd` started for one test: the built binary, on a socket and state directory of its
/// own under a short `/tmp` path (a socket path must fit `sun_path`), working directory in that
/// temporary directory so no repository config is picked up. Stopped and cleaned up by ``stop()``
/// or when released, and started with `--lifeline`, so that it also stops when the test process
/// ends in any other way (a crash, `kill -9`) instead of living on, orphaned.
///
/// Usable from XCTest and Swift Testing alike; nothing here depends on either.
public final class DaemonProcess {
    /// Why the daemon did not come up, with its log.
    public struct StartFailure: Error, CustomStringConvertible {
        public let reason: String
        public let log: String
        public var description: String { "\(reason)\n--- clarityd log ---\n\(log)" }

        public init(reason: String, log: String) {
            self.reason = reason
            self.log = log
        }
    }

    public let directory: URL
    public let socketPath: String
    public let stateDirectory: String
    public let arguments: [String]
    /// Added to the test process's environment (`NOTIFY_SOCKET`, `WATCHDOG_USEC`).
    public let environment: [String: String]
    /// Run under `ulimit -f` with this many KiB (file writes beyond it fail with EFBIG), when set.
    public let fileSizeLimitKiB: Int?
    /// Run under `ulimit -n` with this many descriptors (soft and hard), when set; may change
    /// between restarts.
    public var descriptorLimit: Int?
    /// Run under `ulimit -S -n` with this many descriptors (the soft limit only), when set.
    public var softDescriptorLimit: Int?
    /// How long ``call(_:_:)`` waits for an answer: a minute (times ``TestTimeouts/scale``),
    /// since a loaded machine delays answers the daemon gives at once when alone (two test runs
    /// at once: WaitUntilTests' exploration, 2.5 s alone, went unanswered for the 10 s it was).
    /// Raise it for a long exploration.
    public var answerTimeout: Double = 60 * TestTimeouts.scale
    private var child: ChildProcess?
    /// What it writes to stdout and stderr, across restarts; in `clarityd.log` as well.
    private let output: DaemonLog
    private var connection: RawConnection?
    /// This end of the daemon's lifeline (its standard input), held while it may run.
    private var lifeline: Int32 = -1
    private var nextID = 1

    /// Starts `clarityd --socket … --state-dir …` plus `arguments`; with `config`, also
    /// `--config` pointing at that JSON written to the temporary directory; with
    /// `fileSizeLimitKiB`, under that file-size limit (to see writes fail as on a full disk).
    public init(
        arguments: [String] = [], config: JSONValue? = nil, fileSizeLimitKiB: Int? = nil, descriptorLimit: Int? = nil,
        environment: [String: String] = [:]
    ) throws {
        self.environment = environment
        self.fileSizeLimitKiB = fileSizeLimitKiB
        self.descriptorLimit = descriptorLimit
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
        output = try DaemonLog(url: directory.appendingPathComponent("clarityd.log"))
        try start()
    }

    deinit {
        stop()
    }

    /// Launches the daemon (again, after it exited: same socket and state directory) and waits
    /// until its socket accepts a connection, at most `timeout` seconds.
    public func start(timeout: Double = 10) throws {
        let process = Process()
        let arguments = self.arguments + ["--lifeline"]
        let limits = [
            fileSizeLimitKiB.map { "ulimit -f \($0)" }, descriptorLimit.map { "ulimit -n \($0)" },
            softDescriptorLimit.map { "ulimit -S -n \($0)" },
        ].compactMap { $0 }
        if !limits.isEmpty {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments =
                ["-c", (limits + ["exec \"$0\" \"$@\""]).joined(separator: " && "), BuildProducts.executable("clarityd").path]
                + arguments
        } else {
            process.executableURL = BuildProducts.executable("clarityd")
            process.arguments = arguments
        }
        process.currentDirectoryURL = directory
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
        }
        let daemonEnd = try openLifeline()
        process.standardInput = FileHandle(fileDescriptor: daemonEnd, closeOnDealloc: false)
        let logEnd: Int32
        do {
            logEnd = try output.attach()
        } catch {
            close(daemonEnd)
            throw error
        }
        let log = FileHandle(fileDescriptor: logEnd, closeOnDealloc: false)
        process.standardOutput = log
        process.standardError = log
        let child = ChildProcess(process)
        defer {
            close(daemonEnd)
            close(logEnd)
        }
        try child.run()
        self.child = child
        connection = nil
        let deadline = Date(timeIntervalSinceNow: timeout * TestTimeouts.scale)
        repeat {
            if (try? RawConnection(path: socketPath, receiveTimeout: 1)) != nil { return }
            if let status = child.wait(timeout: 0.02) {
                throw StartFailure(reason: "clarityd exited with status \(status)", log: self.log)
            }
        } while Date() < deadline
        throw StartFailure(reason: "clarityd did not accept connections on \(socketPath) within \(Int(timeout)) s", log: self.log)
    }

    /// What the daemon wrote to stdout and stderr so far.
    public var log: String {
        output.text
    }

    /// Waits until the daemon's log holds `text`, at most `timeout` seconds (times
    /// ``TestTimeouts/scale``) or until it has exited; whether it does.
    public func waitForLog(_ text: String, timeout: Double = 60) -> Bool {
        waitForLog(timeout: timeout) { $0.contains(text) }
    }

    /// Waits until `satisfied` holds for the daemon's log, at most `timeout` seconds (times
    /// ``TestTimeouts/scale``) or until it has exited; whether it holds.
    public func waitForLog(timeout: Double = 60, until satisfied: (String) -> Bool) -> Bool {
        output.wait(timeout: timeout * TestTimeouts.scale, until: satisfied)
    }

    /// The log once every writer of it has ended (the daemon, and the backtracer a crash
    /// starts, which may outlive it), or after `timeout` seconds: all of a crash report.
    public func finalLog(timeout: Double = 15) -> String {
        _ = output.waitForEnd(timeout: timeout)
        return output.text
    }

    public var processIdentifier: Int32 { child?.processIdentifier ?? 0 }

    /// Calls `method` on a connection kept open for these calls; returns the result or throws the
    /// daemon's ``RPCError`` (or a ``RawConnection/Failure``).
    public func call(_ method: String, _ params: JSONValue? = nil) throws -> JSONValue {
        let connection = try self.connection ?? RawConnection(path: socketPath, receiveTimeout: answerTimeout)
        self.connection = connection
        let request = RPCRequest(id: .number(nextID), method: method, params: params)
        nextID += 1
        try connection.send(JSONWire.encodeString(request.json) + "\n")
        while true {
            guard let line = try connection.readLine() else {
                self.connection = nil
                throw RawConnection.Failure(operation: "\(method): connection closed by clarityd", errno: ECONNRESET)
            }
            let message = try JSONWire.decode(JSONValue.self, from: Data(line.utf8))
            if message["id"] == nil, message["method"] != nil { continue }
            let response = try JSONWire.decode(RPCResponse.self, from: Data(line.utf8))
            switch response.outcome {
            case .result(let result): return result
            case .error(let error): throw error
            }
        }
    }

    /// Sends `line` (a `\n` is added when missing) on a fresh connection and returns the first
    /// line of the answer; nil when the daemon closed the connection or sent nothing in `timeout`.
    public func sendRaw(line: String, timeout: Double = 5) -> String? {
        guard let connection = try? RawConnection(path: socketPath, receiveTimeout: timeout) else { return nil }
        try? connection.send(line.hasSuffix("\n") ? line : line + "\n")
        return try? connection.readLine()
    }

    /// A new connection of one's own, for tests that need several or hold one open.
    public func connect(receiveTimeout: Double = 10) throws -> RawConnection {
        try RawConnection(path: socketPath, receiveTimeout: receiveTimeout)
    }

    /// Runs the built `clarityctl --socket <this daemon's socket> arguments…`. A `--socket` in
    /// `arguments` wins, as the last one given does.
    public func runCtl(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
        Clarityctl.run(["--socket", socketPath] + arguments)
    }

    /// Whether the daemon process is still running.
    public var isRunning: Bool {
        child?.isRunning ?? false
    }

    /// Whether the daemon exits within `timeout` seconds (it is left running when it does not).
    public func exited(within timeout: Double) -> Bool {
        child?.wait(timeout: timeout) != nil || child == nil
    }

    /// Sends `signal` to the daemon.
    public func kill(_ signal: Int32 = SIGTERM) {
        guard let child, child.isRunning else { return }
        _ = sendSignal(child.processIdentifier, signal)
    }

    /// Waits for the daemon to exit and returns its exit status, or 128 + the signal that ended
    /// it. After `timeout` seconds it is killed with SIGKILL (so a hang shows as 137); -1 when even
    /// that is not seen to end it within 30 s.
    @discardableResult
    public func waitForExit(timeout: Double = 10) -> Int32 {
        guard let child else { return 0 }
        connection = nil
        if let status = child.wait(timeout: timeout * TestTimeouts.scale) { return status }
        _ = sendSignal(child.processIdentifier, SIGKILL)
        return child.wait(timeout: 30) ?? -1
    }

    /// Stops the daemon (SIGTERM, then SIGKILL after 5 s) and removes its temporary directory
    /// (unless asked to keep it, for a post-mortem).
    public func stop(keepingDirectory: Bool = false) {
        connection = nil
        if isRunning {
            kill(SIGTERM)
            waitForExit(timeout: 5)
        }
        closeLifeline()
        if !keepingDirectory { try? FileManager.default.removeItem(at: directory) }
    }

    /// A new lifeline (the last one let go); returns the daemon's end.
    private func openLifeline() throws -> Int32 {
        closeLifeline()
        let (ours, daemons) = try closeOnExecSocketPair()
        lifeline = ours
        return daemons
    }

    private func closeLifeline() {
        guard lifeline >= 0 else { return }
        close(lifeline)
        lifeline = -1
    }
}

#if canImport(Glibc)
    private let sendSignal = Glibc.kill
#else
    private let sendSignal = Darwin.kill
#endif
