import ControlProtocol

/// `clarityctl trace`: the device's trace events, one line each.
struct TraceGet: RequestCommand {
    static let help = CommandHelp(
        words: ["trace"], synopsis: "[--since SEQ] [--limit N]",
        abstract: "show the device's trace (trace.get)",
        details: [
            "  --since SEQ  only events after sequence number SEQ (the `seq` of an event seen before)",
            "  --limit N    at most N events, the oldest first",
        ])

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        var members: [String: JSONValue] = [:]
        if let since = try arguments.value(of: "--since") {
            members["since"] = .int(try ArgumentValues.integer(since, for: "--since", minimum: 0))
        }
        if let limit = try arguments.value(of: "--limit") {
            members["limit"] = .int(try ArgumentValues.integer(limit, for: "--limit", minimum: 1))
        }
        params = options.deviceParams(members)
    }

    var method: Method { .traceGet }
    var presentation: Presentation { .trace }
}
