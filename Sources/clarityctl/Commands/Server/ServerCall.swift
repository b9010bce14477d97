import ControlProtocol

/// `clarityctl server call METHOD [PARAMS]`: one of a server's inspection methods, on one
/// instance (docs/protocol.md, "Servers").
struct ServerCall: MethodCommand {
    static let help = CommandHelp(
        words: ["server", "call"], synopsis: "METHOD [PARAMS] [--server NAME] [--instance NAME]",
        abstract: "call a server's method on one of its instances (server.call)",
        details: [
            "  METHOD           the server's method (server.list names the servers; an unknown one is answered with the list)",
            "  PARAMS           the method's params, a JSON object (default {})",
            "  --server NAME    which server (default: the only one, or the one the --device's app talks to)",
            "  --instance NAME  which instance (default: the one --device talks to, else default)",
            "  --device NAME    a device: its instance of the server, and the device the method is told of",
            "",
            "Example:",
            "  clarityctl server call users --device alice",
        ])

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        var members: [String: JSONValue] = [:]
        if let server = try arguments.value(of: "--server") { members["server"] = .string(server) }
        if let instance = try arguments.value(of: "--instance") { members["instance"] = .string(instance) }
        members["method"] = .string(try arguments.positional("METHOD"))
        if let text = arguments.optionalPositional() { members["params"] = try ArgumentValues.json(text, for: "PARAMS") }
        if options.deviceWasGiven { members["device"] = .string(options.device) }
        params = .object(members)
    }

    var method: Method { .serverCall }
}
