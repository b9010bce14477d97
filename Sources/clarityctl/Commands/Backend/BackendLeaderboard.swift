import ControlProtocol

/// `clarityctl backend leaderboard GROUP`: the seed's leaderboard query for a group, now.
struct BackendLeaderboard: RequestCommand {
    static let help = CommandHelp(
        words: ["backend", "leaderboard"], synopsis: "GROUP [--backend NAME]",
        abstract: "show a group's leaderboard (backend.leaderboard)",
        details: [
            "  GROUP            the group's id (group.create answers it; backend groups lists them)",
            BackendParams.backendLine,
        ])

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        var members = try BackendParams.named(&arguments)
        members["group"] = .string(try arguments.positional("GROUP"))
        params = .object(members)
    }

    var methodName: String { "backend.leaderboard" }
}
