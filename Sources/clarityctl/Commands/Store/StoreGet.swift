import ControlProtocol

/// `clarityctl store get KEY`: one value from an App Group suite (null when absent).
struct StoreGet: MethodCommand {
    static let help = CommandHelp(
        words: ["store", "get"], synopsis: "KEY [--suite S]",
        abstract: "read an App Group value (store.get)",
        details: ["  --suite S   the UserDefaults suite (default: the app's App Group)"])

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        var members: [String: JSONValue] = [:]
        if let suite = try arguments.value(of: "--suite") { members["suite"] = .string(suite) }
        members["key"] = .string(try arguments.positional("KEY"))
        params = options.deviceParams(members)
    }

    var method: Method { .storeGet }
}
