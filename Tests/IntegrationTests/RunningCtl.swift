import DaemonTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `clarityctl` left running (`watch`, `explore`): its stdout — or stderr — read line by line
/// as it comes, each read waiting at most a deadline; ended by a signal or by itself.
final class RunningCtl {
    private let child: ChildProcess
    private let output: FileHandle
    private let errors: FileHandle
    private var pending: [UInt8] = []
    private var pendingErrors: [UInt8] = []

    init(socket: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = BuildProducts.executable("clarityctl")
        process.arguments = ["--socket", socket] + arguments
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        output = stdout.fileHandleForReading
        errors = stderr.fileHandleForReading
        child = ChildProcess(process)
        try child.run()
    }

    deinit {
        if child.isRunning { child.process.terminate() }
        child.wait(timeout: 10)
    }

    /// The next line it printed, without its `\n`; nil when none came within `timeout` seconds
    /// or it closed stdout.
    func readLine(timeout: Double = 10) -> String? {
        Self.readLine(from: output, buffered: &pending, timeout: timeout)
    }

    /// The next line it wrote to stderr, as ``readLine(timeout:)``; kept for ``stderr``.
    func readErrorLine(timeout: Double = 10) -> String? {
        let line = Self.readLine(from: errors, buffered: &pendingErrors, timeout: timeout)
        if let line { readErrors.append(line + "\n") }
        return line
    }

    /// The stderr lines read so far.
    private var readErrors = ""

    private static func readLine(from output: FileHandle, buffered pending: inout [UInt8], timeout: Double) -> String? {
        let deadline = DispatchTime.now() + timeout
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let now = DispatchTime.now()
            guard now < deadline else { return nil }
            var entry = pollfd(fd: output.fileDescriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min((deadline.uptimeNanoseconds - now.uptimeNanoseconds) / 1_000_000 + 1, 60_000))
            guard poll(&entry, 1, milliseconds) > 0 else { continue }
            let chunk = output.availableData
            if chunk.isEmpty { return nil }
            pending += chunk
        }
    }

    /// Reads lines until one contains `text`; that line, or nil when none did in time. From
    /// stderr when `fromStderr`.
    func readLine(containing text: String, fromStderr: Bool = false, timeout: Double = 10) -> String? {
        while let line = fromStderr ? readErrorLine(timeout: timeout) : readLine(timeout: timeout) {
            if line.contains(text) { return line }
        }
        return nil
    }

    func signal(_ number: Int32) {
        _ = sendSignal(child.processIdentifier, number)
    }

    /// Its exit status once it ended, within `timeout` seconds; nil while it runs.
    func wait(timeout: Double = 10) -> Int32? {
        child.wait(timeout: timeout)
    }

    /// What it printed that was not read yet (read once it has ended).
    var stdout: String {
        String(decoding: pending + output.readDataToEndOfFile(), as: UTF8.self)
    }

    /// Everything it wrote to stderr, the lines already read too (read once it has ended).
    var stderr: String {
        readErrors + String(decoding: pendingErrors + errors.readDataToEndOfFile(), as: UTF8.self)
    }
}

#if canImport(Glibc)
    private let sendSignal = Glibc.kill
#else
    private let sendSignal = Darwin.kill
#endif
