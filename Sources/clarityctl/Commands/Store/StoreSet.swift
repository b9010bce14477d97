import ControlProtocol

/// `clarityctl store set KEY VALUE`: an outside write to an App Group suite, traced as such.
struct StoreSet: MethodCommand {
    static let help = CommandHelp(
        words: ["store", "set"], synopsis: "KEY VALUE [--suite S]",
        abstract: "write an App Group value (store.set)",
        details: [
            "VALUE is JSON when it parses as JSON (3, true, '[\"a\"]', '\"3\"'), else a string.",
            "  --suite S   the UserDefaults suite (default: the app's App Group)",
        ])

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        var members: [String: JSONValue] = [:]
        if let suite = try arguments.value(of: "--suite") { members["suite"] = .string(suite) }
        members["key"] = .string(try arguments.positional("KEY"))
        members["value"] = ArgumentValues.jsonOrString(try arguments.positional("VALUE"))
        params = options.deviceParams(members)
    }

    var method: Method { .storeSet }
}
