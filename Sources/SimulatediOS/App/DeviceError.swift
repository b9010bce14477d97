/// Why a device refused a request. The daemon maps each case to a protocol error code
/// (docs/protocol.md): `invalidArgument` → -32602, `unknown*` → -32002, `refused` → -32003.
public enum DeviceError: Error, Equatable, Sendable {
    /// A parameter is missing, of the wrong type or out of range. `field` is its JSON path.
    case invalidArgument(field: String, reason: String)
    case unknownApp(String)
    case unknownEvent(String)
    /// An intent the app doesn't answer; `known` lists the ones it does.
    case unknownIntent(String, known: [String])
    /// The simulated platform or app refused; `reason` names the case (e.g. `intervalTooShort`).
    case refused(reason: String, message: String)
    /// A bug in simulated code (the world failed); the daemon reports -32603.
    case internalFailure(String)
}

extension DeviceError {
    /// This error with its field placed inside `parent` (`quirks.x` inside `config` is `config.quirks.x`).
    public func inside(_ parent: String) -> DeviceError {
        guard case .invalidArgument(let field, let reason) = self else { return self }
        return .invalidArgument(field: field.isEmpty ? parent : "\(parent).\(field)", reason: reason)
    }
}

extension DeviceError: CustomStringConvertible {
    /// One line for a scenario failure or a log.
    public var description: String {
        switch self {
        case .invalidArgument(let field, let reason): "\(field): \(reason)"
        case .unknownApp(let name): "unknown app \(name)"
        case .unknownEvent(let type): "unknown event type \(type)"
        case .unknownIntent(let name, let known): "unknown intent \(name) (known: \(known.joined(separator: ", ")))"
        case .refused(let reason, let message): "refused (\(reason)): \(message)"
        case .internalFailure(let message): "internal failure: \(message)"
        }
    }
}
