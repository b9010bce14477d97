import ControlProtocol

/// Options every command accepts, before or after the command's own words.
struct GlobalOptions: Sendable {
    /// The daemon's socket: `--socket`, else `$CLARITYD_SOCKET`, else ``SocketPath/defaultPath(environment:)``.
    var socketPath: String
    /// The device that device methods address: `--device`, else `default`.
    var device: String
    /// Whether `--device` was given (bench then uses it instead of a device of its own).
    var deviceWasGiven: Bool
    /// Print the raw `result` JSON instead of human output.
    var json: Bool
    var help: Bool
    var version: Bool

    /// Takes the global options out of `arguments`, wherever they are.
    static func extract(from arguments: inout Arguments, environment: [String: String]) throws -> GlobalOptions {
        let socket = try arguments.value(of: "--socket")
        let device = try arguments.value(of: "--device")
        if socket?.isEmpty == true { throw UsageError("option --socket needs a non-empty path") }
        if device?.isEmpty == true { throw UsageError("option --device needs a non-empty name") }
        return GlobalOptions(
            socketPath: socket ?? SocketPath.fromEnvironment(environment) ?? SocketPath.defaultPath(environment: environment),
            device: device ?? "default",
            deviceWasGiven: device != nil,
            json: arguments.flag("--json"),
            help: arguments.flag("--help", "-h"),
            version: arguments.flag("--version"))
    }

    /// `params` with the `device` member added, for methods that address a device.
    func deviceParams(_ members: [String: JSONValue] = [:]) -> JSONValue {
        var members = members
        members["device"] = .string(device)
        return .object(members)
    }
}
