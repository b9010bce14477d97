import ControlProtocol

/// `clarityctl store dump`: every value of an App Group suite.
struct StoreDump: MethodCommand {
    static let help = CommandHelp(
        words: ["store", "dump"], synopsis: "[--suite S]",
        abstract: "show every App Group value (store.dump)",
        details: ["  --suite S   the UserDefaults suite (default: the app's App Group)"])

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        var members: [String: JSONValue] = [:]
        if let suite = try arguments.value(of: "--suite") { members["suite"] = .string(suite) }
        params = options.deviceParams(members)
    }

    var method: Method { .storeDump }
}
