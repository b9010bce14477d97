/// Placeholder: replaced by the daemon's logger.
final class Logger: Sendable {
    func debug(_ message: String) {}
    func info(_ message: String) {}
    func warning(_ message: String) {}
    func error(_ message: String) {}
}
