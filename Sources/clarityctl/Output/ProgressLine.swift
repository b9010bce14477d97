import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a long call (`explore`) says on stderr while it runs, so that it is never silent.
///
/// On a terminal (``Style/terminal``), one line redrawn every ``intervalMilliseconds`` with a
/// turning spinner and the seconds so far, erased when the call ends: `| [######··········]
/// 412/1000 schedules, 0 failed 12 s`. Elsewhere — a CI log, a file — (``Style/plain``), a line
/// of its own every ``plainInterval``: `explore: 12,340 of 1,000,000 schedules, 0 failed, seeds
/// 0–12339, 40 s`; a CI log once sat silent for the six minutes of an exploration.
enum ProgressLine {
    static let intervalMilliseconds = 125
    /// How often the plain line is written: often enough that a log shows the call is alive,
    /// seldom enough that an hour's exploration writes 720 lines.
    static let plainInterval = DispatchTimeInterval.seconds(5)
    private static let frames = ["|", "/", "-", "\\"]

    enum Style: Sendable {
        /// Redrawn in place, erased at the end.
        case terminal
        /// A line of its own every ``plainInterval``.
        case plain
    }

    /// How stderr is written to: ``Style/terminal`` when it is one.
    static var style: Style { isatty(STDERR_FILENO) == 1 ? .terminal : .plain }

    /// What the line says (after the spinner, before the seconds); `body` may change it while it
    /// runs (``Status/set(_:)``, e.g. from progress notifications).
    // unchecked: lock-protected: every var is touched only under `lock` (NSLock, which TSan follows; Mutex it cannot see)
    final class Status: @unchecked Sendable {
        private let lock = NSLock()
        private var text: String

        init(_ text: String) { self.text = text }

        func set(_ text: String) { lock.withLock { self.text = text } }
        var current: String { lock.withLock { text } }
    }

    /// Runs `body` with `status` shown meanwhile in `style`; `body` may update it. The plain line
    /// comes every `plainInterval`, and goes to `write` (stderr unless a test says otherwise).
    static func whileRunning<T>(
        _ status: Status, style: Style = style, plainInterval: DispatchTimeInterval = plainInterval,
        write: @escaping @Sendable (String) -> Void = standardError, _ body: (Status) throws -> T
    ) rethrows -> T {
        let queue = DispatchQueue(label: "clarityctl.progress")
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let started = DispatchTime.now().uptimeNanoseconds
        let elapsedMilliseconds = { @Sendable in Int((DispatchTime.now().uptimeNanoseconds - started) / 1_000_000) }
        switch style {
        case .terminal:
            timer.schedule(deadline: .now(), repeating: .milliseconds(intervalMilliseconds))
            timer.setEventHandler {
                let milliseconds = elapsedMilliseconds()
                let frame = frames[milliseconds / intervalMilliseconds % frames.count]
                write("\r\u{1B}[K\(frame) \(status.current) \(milliseconds / 1000) s")
            }
        case .plain:
            timer.schedule(deadline: .now() + plainInterval, repeating: plainInterval)
            timer.setEventHandler { write(plainLine(status.current, seconds: elapsedMilliseconds() / 1000)) }
        }
        timer.resume()
        defer {
            queue.sync {
                timer.cancel()
                if style == .terminal { write("\r\u{1B}[K") }
            }
        }
        return try body(status)
    }

    /// The plain line: the status and the seconds so far.
    static func plainLine(_ text: String, seconds: Int) -> String {
        "\(text), \(seconds) s\n"
    }

    /// `line` on stderr while a progress line may be shown: on a terminal the line being redrawn
    /// is erased first, and drawn again below at its next turn.
    static func note(_ line: String, style: Style = style) {
        standardError((style == .terminal ? "\r\u{1B}[K" : "") + line + "\n")
    }

    @Sendable static func standardError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
