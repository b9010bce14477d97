import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process the tests start (clarityd, clarityctl) and wait for.
///
/// Foundation's `terminationHandler` is the usual news of its end, but on Linux it is sometimes
/// never called when many children start at once: the child stays a zombie and a test waiting
/// on the handler waits forever. So the wait also reaps the child with `waitpid` itself.
/// Usable from XCTest and Swift Testing alike; waits with a deadline, never with sleeps in
/// assertions.
public final class ChildProcess {
    public let process: Process
    private let ended = DispatchGroup()
    /// The exit status, or 128 + the signal that ended it, once known.
    public private(set) var status: Int32?

    public init(_ process: Process) {
        self.process = process
        ended.enter()
        let ended = ended
        process.terminationHandler = { _ in ended.leave() }
    }

    public func run() throws {
        try process.run()
    }

    public var processIdentifier: Int32 { process.processIdentifier }

    /// Whether it is still running (reaping it if it just ended).
    public var isRunning: Bool { wait(timeout: 0) == nil }

    /// Waits up to `timeout` seconds for the end; returns the status, or nil if still running.
    @discardableResult
    public func wait(timeout: Double) -> Int32? {
        let deadline = DispatchTime.now() + timeout
        while true {
            if let status { return status }
            if ended.wait(timeout: .now() + .milliseconds(10)) == .success {
                status = process.terminationReason == .uncaughtSignal
                    ? 128 + process.terminationStatus : process.terminationStatus
                return status
            }
            var raw: Int32 = 0
            if waitpid(process.processIdentifier, &raw, WNOHANG) == process.processIdentifier {
                let signal = raw & 0x7f
                status = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
                return status
            }
            if DispatchTime.now() >= deadline { return nil }
        }
    }
}
