import ControlProtocol
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A clarityd of clarityctl's own, for one command (`--standalone`): the `clarityd` next to
/// clarityctl's executable, on a socket and state directory in a fresh directory under `/tmp`
/// (a socket path must fit `sun_path`), working in it so that no `config/clarityd.json` is
/// picked up. ``stop()`` shuts it down and removes the directory; SIGINT or SIGTERM to
/// clarityctl meanwhile does the same, then ends clarityctl as the signal would have (unless
/// the command takes SIGINT over itself: then only the signals it is told to forward).
///
/// The daemon never outlives clarityctl: its standard input is a pipe whose other end only
/// clarityctl holds (`--lifeline`), so when clarityctl ends in any way — `kill -9` too — the
/// daemon stops and removes the directory itself (`--remove-at-exit`).
final class PrivateDaemon {
    /// How long the daemon may take to accept connections.
    static let startTimeout = 30.0

    let socketPath: String
    private let directory: String
    private let process: Process
    /// clarityctl's end of the daemon's lifeline: never written, closed only by clarityctl's end.
    private let lifeline = Pipe()
    private var signalSources: [any DispatchSourceSignal] = []
    /// The signals that stop the daemon and end clarityctl.
    private let forwarded: [Int32]
    /// Held by ``stop()`` while it stops the daemon, and for good by a signal's handler, so that
    /// clarityctl does not report the connection it lost to the handler before the signal ends it.
    private let stopping = NSLock()

    /// Starts it and waits until its socket accepts connections; throws
    /// ``ClientError/standaloneFailed(_:)`` when there is no clarityd next to clarityctl, or it
    /// exits or stays silent (its log then tells why).
    init(forwarding forwarded: [Int32] = [SIGINT, SIGTERM]) throws {
        self.forwarded = forwarded
        var template = Array("/tmp/clarityctl-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else {
            throw ClientError.standaloneFailed("cannot make a temporary directory: \(String(cString: strerror(errno)))")
        }
        directory = String(cString: created)
        socketPath = directory + "/clarityd.sock"
        process = Process()
        do {
            try launch()
            try waitUntilListening()
        } catch {
            stop()
            throw error
        }
    }

    /// Shuts the daemon down (`daemon.shutdown`, else SIGTERM), waits for its end and removes
    /// its directory. Stopping twice does nothing more.
    func stop() {
        stopping.lock()
        defer { stopping.unlock() }
        for source in signalSources { source.cancel() }
        if !signalSources.isEmpty {
            for number in forwarded { signal(number, SIG_DFL) }
            signalSources = []
        }
        if process.isRunning {
            let shutdown = Result {
                try ClarityClient(socketPath: socketPath, idleTimeout: 10).call(Method.daemonShutdown.rawValue, params: nil)
            }
            if case .failure = shutdown { process.terminate() }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The daemon to start: `$CLARITYD_EXECUTABLE` when set (a daemon of your own with your
    /// apps, docs/sdk.md "Your own daemon"), else the `clarityd` beside this executable, as
    /// called (a symlink's directory) or as resolved.
    private static func executable() throws -> URL {
        if let given = ProcessInfo.processInfo.environment["CLARITYD_EXECUTABLE"], !given.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: given) else {
                throw ClientError.standaloneFailed("CLARITYD_EXECUTABLE names \(given), which is not an executable file")
            }
            return URL(fileURLWithPath: given)
        }
        guard let own = Bundle.main.executableURL else {
            throw ClientError.standaloneFailed("cannot tell where clarityctl is installed, to find clarityd beside it")
        }
        let candidates = [own, own.resolvingSymlinksInPath()].map {
            $0.deletingLastPathComponent().appendingPathComponent("clarityd")
        }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw ClientError.standaloneFailed("no clarityd beside clarityctl (looked for \(candidates[0].path))")
        }
        return found
    }

    private var logPath: String { directory + "/clarityd.log" }

    private func launch() throws {
        process.executableURL = try Self.executable()
        process.arguments = [
            "--socket", socketPath, "--state-dir", directory + "/state", "--lifeline", "--remove-at-exit", directory,
        ]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        guard FileManager.default.createFile(atPath: logPath, contents: nil), let log = FileHandle(forWritingAtPath: logPath)
        else {
            throw ClientError.standaloneFailed("cannot write \(logPath)")
        }
        defer { try? log.close() }
        process.standardInput = lifeline.fileHandleForReading
        process.standardOutput = log
        process.standardError = log
        do {
            try process.run()
        } catch {
            throw ClientError.standaloneFailed("cannot start \(process.executableURL?.path ?? "clarityd"): \(error)")
        }
        // Only the daemon keeps the reading end.
        try? lifeline.fileHandleForReading.close()
        forwardTerminationSignals()
    }

    /// Until ``stop()``: the ``forwarded`` signals stop the daemon and remove its directory first.
    private func forwardTerminationSignals() {
        let process = process
        let directory = directory
        let stopping = stopping
        signalSources = forwarded.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                stopping.lock()
                process.terminate()
                process.waitUntilExit()
                try? FileManager.default.removeItem(atPath: directory)
                signal(number, SIG_DFL)
                kill(getpid(), number)
            }
            source.resume()
            return source
        }
    }

    /// Tries to connect until the daemon accepts, exits, or ``startTimeout`` passes.
    private func waitUntilListening() throws {
        let deadline = DispatchTime.now() + Self.startTimeout
        while (try? UnixSocket(connectingTo: socketPath, idleTimeout: 1)) == nil {
            guard process.isRunning else {
                throw ClientError.standaloneFailed("clarityd exited with status \(process.terminationStatus)\(logTail)")
            }
            guard DispatchTime.now() < deadline else {
                throw ClientError.standaloneFailed("clarityd did not listen within \(Int(Self.startTimeout)) s\(logTail)")
            }
            usleep(10_000)
        }
    }

    /// The end of the daemon's log, on lines of its own after a colon.
    private var logTail: String {
        let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        let lines = log.split(separator: "\n").suffix(5)
        return lines.isEmpty ? "" : ":\n" + lines.joined(separator: "\n")
    }
}
