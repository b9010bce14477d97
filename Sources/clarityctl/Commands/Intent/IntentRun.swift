import ControlProtocol

/// `clarityctl intent NAME KEY=VALUE…`: a user action inside the main app, e.g. `selectApps`.
/// Its help lists each app's intents as the running daemon's `daemon.catalog` gives them.
struct IntentRun: MethodCommand {
    static let help = CommandHelp(
        words: ["intent"], synopsis: "NAME [KEY=VALUE ...] [--app APP]",
        abstract: "perform a user action in the main app (intent)",
        details: [
            "Each KEY=VALUE becomes a member of args; VALUE is JSON when it parses as JSON, else a string.",
            "  --app APP   the installed app whose main app acts (required on a device with several apps)",
            "Examples:",
            "  clarityctl intent selectApps apps='[\"com.burbn.instagram\"]'",
            "  clarityctl intent focus.start minutes=25 whitelist='[]'",
            "  clarityctl --device lab intent setGoal kind=steps target=8000",
            "  clarityctl --device both intent limitApps apps='[\"com.burbn.instagram\"]' --app dailylimit",
        ])

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        let app = try arguments.value(of: "--app")
        let name = try arguments.positional("NAME")
        let args = try ArgumentValues.keyValuePairs(arguments.remainingPositionals())
        var members: [String: JSONValue] = ["name": .string(name), "args": .object(args)]
        if let app { members["app"] = .string(app) }
        params = options.deviceParams(members)
    }

    var method: Method { .intent }

    static func helpPage(in session: Session) -> CommandHelp {
        var page = help
        page.details += [""] + intentLines(DaemonCatalog.fetch(in: session))
        return page
    }

    /// The intents of each available app, one line each with how its arguments are written, then
    /// the apps that are coming; or one line saying why they cannot be listed.
    static func intentLines(_ catalog: Result<DaemonCatalog, any Error>) -> [String] {
        switch catalog {
        case .failure(let error as RPCError):
            return ["(clarityd did not list its apps' intents: \(error.message))"]
        case .failure(ClientError.timedOut(let seconds)):
            return ["(clarityd did not answer within \(PlainText.scalar(.double(seconds))) s to list its apps' intents)"]
        case .failure:
            return ["(start clarityd to list each app's intents)"]
        case .success(let catalog):
            let available = catalog.apps.filter(\.available)
            let width = available.flatMap(\.intents).map(\.name.count).max() ?? 0
            var lines = ["Intents of each app (daemon.catalog):"]
            for app in available {
                lines.append("  " + app.name)
                lines += app.intents.map { intent in
                    intent.arguments.isEmpty
                        ? "    " + intent.name : "    " + PlainText.padded(intent.name, to: width) + "  " + intent.arguments
                }
            }
            let coming = catalog.apps.filter { !$0.available }.map(\.name)
            if !coming.isEmpty { lines.append("  coming: " + coming.joined(separator: ", ")) }
            return lines
        }
    }
}
