import ControlProtocol

/// `clarityctl store remove KEY`: an outside removal from an App Group suite.
struct StoreRemove: MethodCommand {
    static let help = CommandHelp(
        words: ["store", "remove"], synopsis: "KEY [--suite S]",
        abstract: "remove an App Group value (store.remove)",
        details: ["  --suite S   the UserDefaults suite (default: the app's App Group)"])

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        var members: [String: JSONValue] = [:]
        if let suite = try arguments.value(of: "--suite") { members["suite"] = .string(suite) }
        members["key"] = .string(try arguments.positional("KEY"))
        params = options.deviceParams(members)
    }

    var method: Method { .storeRemove }
}
