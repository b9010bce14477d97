import ControlProtocol

/// `clarityctl backend sync USER EVENTS`: a raw client of the seed's `POST /events/sync`.
struct BackendSync: RequestCommand {
    static let help = CommandHelp(
        words: ["backend", "sync"], synopsis: "USER EVENTS [--last-sync MS] [--backend NAME]",
        abstract: "sync events for a user as a raw client (backend.sync)",
        details: [
            "  EVENTS           a JSON array of {id (UUID), eventType (lock|unlock), timestamp (ms), source}",
            "  --last-sync MS   the client's lastSync, ms since 1970 (default 0)", BackendParams.backendLine,
            "Example:",
            "  clarityctl backend sync alice '[{\"id\":\"6f1c…\",\"eventType\":\"lock\",\"timestamp\":1767603600000,\"source\":\"manual\"}]'",
        ])

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        var members = try BackendParams.named(&arguments)
        if let lastSync = try arguments.value(of: "--last-sync") {
            members["lastSync"] = .int(try ArgumentValues.integer(lastSync, for: "--last-sync"))
        }
        members["user"] = .string(try arguments.positional("USER"))
        members["events"] = try ArgumentValues.json(try arguments.positional("EVENTS"), for: "EVENTS")
        params = .object(members)
    }

    var methodName: String { "backend.sync" }
}
