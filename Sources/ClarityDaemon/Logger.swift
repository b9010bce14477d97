import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How much the daemon logs. Each level includes the ones after it.
enum LogLevel: String, Codable, Sendable, CaseIterable, Comparable {
    case debug, info, warning, error

    private var rank: Int {
        switch self {
        case .debug: 0
        case .info: 1
        case .warning: 2
        case .error: 3
        }
    }

    static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rank < rhs.rank }

    /// The word a log line carries.
    var label: String { rawValue.uppercased() }
}

/// The daemon's log: one line per event on stderr, `<ISO8601 wall time> <LEVEL> <message>`.
///
/// Lines below the configured level are dropped. Each line goes out in a single `write`, so lines
/// from different threads never interleave; newlines inside a message are escaped to keep
/// one event per line.
///
/// What a client can provoke over and over (a parse error per line, an invalid request per batch
/// member) is logged through ``log(_:about:kind:_:)``: at most one line per subject and kind every
/// ``LogThrottle/window``, the rest counted and summed up in one line — `connection 7: 1999
/// similar messages suppressed (invalid request)` — when the next such message comes after the
/// window, when the subject is ``forget(_:)``-ed (its connection closed), or at the latest with
/// the next throttled message about anything once the window has passed.
final class Logger: Sendable {
    /// The least severe level written; a config reload (SIGHUP) may change it.
    var level: LogLevel {
        get { currentLevel.withLock { $0 } }
        set { currentLevel.withLock { $0 = newValue } }
    }
    private let currentLevel: Protected<LogLevel>

    private static let timestamp = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private let throttle = Protected(LogThrottle())

    init(level: LogLevel = .info) {
        currentLevel = Protected(level)
    }

    func debug(_ message: String) { log(.debug, message) }
    func info(_ message: String) { log(.info, message) }
    func warning(_ message: String) { log(.warning, message) }
    func error(_ message: String) { log(.error, message) }

    /// Logs `message` as `subject: message`, unless a message of this `kind` about `subject` was
    /// logged within the last ``LogThrottle/window``; then it is only counted. `message` is not
    /// even built when it is not written.
    func log(_ eventLevel: LogLevel, about subject: String, kind: String, _ message: @autoclosure () -> String) {
        guard eventLevel >= level else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let (admitted, summaries) = throttle.withLock { $0.admit(subject: subject, kind: kind, level: eventLevel, now: now) }
        for summary in summaries { log(summary.level, summary.text) }
        if admitted { log(eventLevel, "\(subject): \(message())") }
    }

    /// Writes the summaries of what was suppressed about `subject`, and forgets it.
    func forget(_ subject: String) {
        let summaries = throttle.withLock { $0.forget(subject: subject) }
        for summary in summaries { log(summary.level, summary.text) }
    }

    private func log(_ eventLevel: LogLevel, _ message: String) {
        guard eventLevel >= level else { return }
        let oneLine = message.replacingOccurrences(of: "\n", with: "\\n")
        let line = Array("\(Date().formatted(Self.timestamp)) \(eventLevel.label) \(oneLine)\n".utf8)
        var offset = 0
        while offset < line.count {
            let written = line.withUnsafeBytes { bytes in
                write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}

/// Which throttled messages ``Logger`` writes (see ``Logger/log(_:about:kind:_:)``); times are
/// monotonic nanoseconds, passed in so the rules can be tested without waiting.
struct LogThrottle {
    /// One message per subject and kind per window; the rest are counted.
    static let window: UInt64 = 1_000_000_000

    struct Summary: Equatable {
        var level: LogLevel
        var text: String
    }

    private struct Window {
        var opened: UInt64
        var level: LogLevel
        var suppressed = 0
    }

    /// Open windows by subject, then kind.
    private var windows: [String: [String: Window]] = [:]
    private var lastSweep: UInt64 = 0

    /// Whether a message of `kind` about `subject` is written now, and the summaries to write
    /// before it (of windows that have closed).
    mutating func admit(subject: String, kind: String, level: LogLevel, now: UInt64) -> (Bool, [Summary]) {
        var summaries: [Summary] = []
        if now &- lastSweep >= Self.window {
            summaries = sweep(now: now)
            lastSweep = now
        }
        if var open = windows[subject]?[kind] {
            if now &- open.opened < Self.window {
                open.suppressed += 1
                windows[subject]?[kind] = open
                return (false, summaries)
            }
            if let summary = Self.summary(subject: subject, kind: kind, open) { summaries.append(summary) }
        }
        windows[subject, default: [:]][kind] = Window(opened: now, level: level)
        return (true, summaries)
    }

    /// The summaries left for `subject`, which is dropped.
    mutating func forget(subject: String) -> [Summary] {
        guard let kinds = windows.removeValue(forKey: subject) else { return [] }
        return kinds.sorted { $0.key < $1.key }.compactMap { Self.summary(subject: subject, kind: $0.key, $0.value) }
    }

    /// Drops the windows that have closed, summing up what they suppressed.
    private mutating func sweep(now: UInt64) -> [Summary] {
        var summaries: [Summary] = []
        for (subject, kinds) in windows {
            var left = kinds
            for (kind, open) in kinds where now &- open.opened >= Self.window {
                if let summary = Self.summary(subject: subject, kind: kind, open) { summaries.append(summary) }
                left[kind] = nil
            }
            windows[subject] = left.isEmpty ? nil : left
        }
        return summaries
    }

    private static func summary(subject: String, kind: String, _ window: Window) -> Summary? {
        guard window.suppressed > 0 else { return nil }
        let noun = window.suppressed == 1 ? "message" : "messages"
        return Summary(level: window.level, text: "\(subject): \(window.suppressed) similar \(noun) suppressed (\(kind))")
    }
}
