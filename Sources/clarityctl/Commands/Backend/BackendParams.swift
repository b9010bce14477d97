import ControlProtocol

/// The options every `clarityctl backend …` command shares: `--backend NAME` (default: the
/// daemon's `default`; for the per-user ones addressed by device, the backend that device talks
/// to), and for the per-user ones `--user NAME` or the global `--device NAME` (the user signed
/// in on that device).
enum BackendParams {
    static let backendLine = "  --backend NAME   which backend (default: default)"
    static let whoseLines = [
        "  --user NAME      the user (or --device NAME: the user signed in on that device)",
        "  --backend NAME   which backend (default: the one --device talks to; with --user, default)",
    ]

    static func named(_ arguments: inout Arguments) throws -> [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        if let backend = try arguments.value(of: "--backend") { members["backend"] = .string(backend) }
        return members
    }

    /// `--backend`, and `--user` or else the session's device.
    static func whose(_ arguments: inout Arguments, options: GlobalOptions) throws -> JSONValue {
        var members = try named(&arguments)
        if let user = try arguments.value(of: "--user") {
            members["user"] = .string(user)
            return .object(members)
        }
        return options.deviceParams(members)
    }
}
