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
final class Logger: Sendable {
    let level: LogLevel

    private static let timestamp = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    init(level: LogLevel = .info) {
        self.level = level
    }

    func debug(_ message: String) { log(.debug, message) }
    func info(_ message: String) { log(.info, message) }
    func warning(_ message: String) { log(.warning, message) }
    func error(_ message: String) { log(.error, message) }

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
