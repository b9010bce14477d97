import ControlProtocol

/// Options every command accepts, before or after the command's own words.
struct GlobalOptions: Sendable {
    /// The daemon's socket: `--socket`, else `$CLARITYD_SOCKET`, else ``SocketPath/defaultPath(environment:)``.
    var socketPath: String
    /// The device that device methods address: `--device`, else `default`.
    var device: String
    /// Whether `--device` was given (bench then uses it instead of a device of its own).
    var deviceWasGiven: Bool
    /// Seconds to wait for the daemon without receiving a byte (or making progress on a write):
    /// `--timeout`, default ``defaultTimeout``; nil waits forever (`--timeout 0`).
    var timeout: Double?
    /// Whether `--timeout` was given (calls that may work long without a word then keep to it
    /// instead of waiting as long as they take, ``Session/longCall(_:params:)``).
    var timeoutWasGiven: Bool
    /// Print the raw `result` JSON instead of human output.
    var json: Bool
    var help: Bool
    var version: Bool

    static let defaultTimeout = 60.0

    /// Takes the global options out of `arguments`, wherever they are.
    static func extract(from arguments: inout Arguments, environment: [String: String]) throws -> GlobalOptions {
        let socket = try arguments.value(of: "--socket")
        let device = try arguments.value(of: "--device")
        let timeoutText = try arguments.value(of: "--timeout")
        let timeout = try timeoutText.map(idleTimeout) ?? defaultTimeout
        if socket?.isEmpty == true { throw UsageError("option --socket needs a non-empty path") }
        if device?.isEmpty == true { throw UsageError("option --device needs a non-empty name") }
        return GlobalOptions(
            socketPath: socket ?? SocketPath.fromEnvironment(environment) ?? SocketPath.defaultPath(environment: environment),
            device: device ?? "default",
            deviceWasGiven: device != nil,
            timeout: timeout,
            timeoutWasGiven: timeoutText != nil,
            json: arguments.flag("--json"),
            help: arguments.flag("--help", "-h"),
            version: arguments.flag("--version"))
    }

    /// `--timeout`'s value: seconds as a decimal number ≥ 0 (`90`, `0.5`), `0` meaning no limit (nil).
    static func idleTimeout(_ text: String) throws -> Double? {
        let decimal = text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
        guard decimal, let seconds = Double(text), seconds.isFinite else {
            throw UsageError("option --timeout must be a number of seconds (0 waits forever), got '\(text)'")
        }
        return seconds == 0 ? nil : seconds
    }

    /// `params` with the `device` member added, for methods that address a device.
    func deviceParams(_ members: [String: JSONValue] = [:]) -> JSONValue {
        var members = members
        members["device"] = .string(device)
        return .object(members)
    }
}
