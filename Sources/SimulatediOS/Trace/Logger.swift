import ExtensionSandbox

/// How serious a logged message is, with `os.Logger`'s names.
public enum LogLevel: String, Sendable, Codable, CaseIterable {
    case debug, info, notice, error, fault
}

/// `os.Logger` for simulated code: each message lands in the trace of the device whose code
/// logs it, as a `log` effect under the process that logged it (`dailylimit.monitor`), at the
/// point it was logged — so a schedule's story shows what the extension said as it ran. Make it
/// as iOS code does, anywhere (`private let log = Logger(subsystem: "…", category: "monitor")`),
/// or from the platform (`platform.logger(category:)`). Logging is not a platform call: it is no
/// scheduling point, and a jetsammed process's last words still show. Outside a device's world
/// messages are dropped. `print` has no counterpart (use a logger).
public struct Logger: Sendable {
    public let subsystem: String
    public let category: String

    public init(subsystem: String, category: String) {
        self.subsystem = subsystem
        self.category = category
    }

    public func debug(_ message: String) { log(level: .debug, message) }
    public func info(_ message: String) { log(level: .info, message) }
    public func notice(_ message: String) { log(level: .notice, message) }
    /// `logger.log(…)`: the default level, `notice`.
    public func log(_ message: String) { log(level: .notice, message) }
    public func error(_ message: String) { log(level: .error, message) }
    public func fault(_ message: String) { log(level: .fault, message) }

    public func log(level: LogLevel, _ message: String) {
        Scheduler.current?.logSink?(level.rawValue, category, message)
    }
}
