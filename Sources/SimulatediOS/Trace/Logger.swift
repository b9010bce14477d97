import ExtensionSandbox

/// How serious a logged message is, with `os.Logger`'s names.
public enum LogLevel: String, Sendable, Codable, CaseIterable {
    case debug, info, notice, error, fault
}

/// `os.Logger` for simulated code: each message lands in the device's trace as a `log` effect,
/// under the process that logged it (`dailylimit.monitor`), at the point it was logged — so a
/// schedule's story shows what the extension said as it ran. Logging is not a platform call:
/// it is no scheduling point, and a jetsammed process's last words still show. Make one from the
/// platform (`platform.logger(category: "monitor")`) where iOS code writes
/// `Logger(subsystem: …, category: "monitor")`; `print` has no counterpart (use `log`).
public struct Logger: Sendable {
    @_spi(Host) public let trace: DeviceTrace
    public let subsystem: String
    public let category: String

    @_spi(Host) public init(trace: DeviceTrace, subsystem: String, category: String) {
        self.trace = trace
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
        trace.record(.log(level: level, category: category, message: message))
    }
}
