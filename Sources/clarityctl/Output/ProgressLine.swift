import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A line on stderr saying what a long call is doing while it runs — `| exploring 1000
/// schedules… 12 s` —, redrawn every ``intervalMilliseconds`` with a turning spinner and the seconds so
/// far, and erased when the call ends. Only when stderr is a terminal: piped or redirected, it
/// gets nothing.
enum ProgressLine {
    static let intervalMilliseconds = 125
    private static let frames = ["|", "/", "-", "\\"]

    /// Whether the line is shown at all (stderr is a terminal).
    static var isShown: Bool { isatty(STDERR_FILENO) == 1 }

    /// What the line says after its spinner; `body` may change it while it runs
    /// (``Status/set(_:)``, e.g. from progress notifications).
    final class Status: @unchecked Sendable {
        private let lock = NSLock()
        private var text: String

        init(_ text: String) { self.text = text }

        func set(_ text: String) { lock.withLock { self.text = text } }
        var current: String { lock.withLock { text } }
    }

    /// Runs `body` with `text` shown meanwhile.
    static func whileRunning<T>(_ text: String, _ body: () throws -> T) rethrows -> T {
        try whileRunning(Status(text)) { _ in try body() }
    }

    /// Runs `body` with `status` shown meanwhile; `body` may update it.
    static func whileRunning<T>(_ status: Status, _ body: (Status) throws -> T) rethrows -> T {
        guard isShown else { return try body(status) }
        let queue = DispatchQueue(label: "clarityctl.progress")
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let started = DispatchTime.now().uptimeNanoseconds
        timer.schedule(deadline: .now(), repeating: .milliseconds(intervalMilliseconds))
        timer.setEventHandler {
            let milliseconds = Int((DispatchTime.now().uptimeNanoseconds - started) / 1_000_000)
            let frame = frames[milliseconds / intervalMilliseconds % frames.count]
            write("\r\u{1B}[K\(frame) \(status.current) \(milliseconds / 1000) s")
        }
        timer.resume()
        defer {
            queue.sync {
                timer.cancel()
                write("\r\u{1B}[K")
            }
        }
        return try body(status)
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
