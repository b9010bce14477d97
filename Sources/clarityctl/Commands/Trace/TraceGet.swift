import ControlProtocol

/// `clarityctl trace`: the device's trace events, one line each.
struct TraceGet: RequestCommand {
    static let help = CommandHelp(
        words: ["trace"], synopsis: "[--since T] [--limit N]",
        abstract: "show the device's trace (trace.get)",
        details: [
            "  --since T   only events at or after t = T seconds since the device's epoch",
            "  --limit N   at most N events",
        ])

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        var members: [String: JSONValue] = [:]
        if let since = try arguments.value(of: "--since") {
            members["since"] = try ArgumentValues.number(since, for: "--since")
        }
        if let limit = try arguments.value(of: "--limit") {
            members["limit"] = .int(try ArgumentValues.integer(limit, for: "--limit", minimum: 1))
        }
        params = options.deviceParams(members)
    }

    var method: Method { .traceGet }
    var presentation: Presentation { .trace }
}
