import ControlProtocol

/// `clarityctl intent NAME KEY=VALUE…`: a user action inside the main app, e.g. `selectApps`.
struct IntentRun: RequestCommand {
    static let help = CommandHelp(
        words: ["intent"], synopsis: "NAME [KEY=VALUE ...]",
        abstract: "perform a user action in the main app (intent)",
        details: [
            "Each KEY=VALUE becomes a member of args; VALUE is JSON when it parses as JSON, else a string.",
            "Examples:",
            "  clarityctl intent selectApps apps='[\"com.burbn.instagram\"]'",
            "  clarityctl intent setProsocial enabled=true",
            "  clarityctl intent addHomeNetwork ssid=Home",
            "  clarityctl intent focus.start minutes=25 whitelist='[]'",
        ])

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        let name = try arguments.positional("NAME")
        let args = try ArgumentValues.keyValuePairs(arguments.remainingPositionals())
        params = options.deviceParams(["name": .string(name), "args": .object(args)])
    }

    var method: Method { .intent }
}
