import ControlProtocol

/// `clarityctl trace`: the device's trace events, one line each led by its `seq`. The daemon
/// selects (`kinds`) and windows (`limit`, `last`); it answers at most ``pageSize`` events at a
/// time, so the whole trace, or more than a page of the oldest, is fetched page by page.
struct TraceGet: ClarityCommand {
    static let help = CommandHelp(
        words: ["trace"], synopsis: "[--since SEQ] [--limit N | --last N] [--kind KIND ...]",
        abstract: "show the device's trace (trace.get)",
        details: [
            "  --since SEQ  only events after sequence number SEQ (the seq of an event seen before)",
            "  --limit N    the oldest N events",
            "  --last N     the newest N events (at most 10000)",
            "  --kind KIND  only events of kind KIND, or of the kinds under it (monitor and monitor.",
            "               match monitor.threshold; app is the app's own events, app. is app.state);",
            "               repeat it for several kinds",
            "Each line: seq, t, kind, actor, then the other fields.",
            "Examples:",
            "  clarityctl trace --last 5",
            "  clarityctl trace --kind store.write --kind app",
            "See also: trace export (the trace for Perfetto), watch (events as they happen).",
        ], aliases: [["trace", "get"]])

    /// Which end of the trace to keep, and how many events.
    enum Window: Equatable {
        case oldest(Int)
        case newest(Int)
    }

    let since: Int?
    let window: Window?
    let kinds: [String]

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        since = try arguments.value(of: "--since").map { try ArgumentValues.integer($0, for: "--since", minimum: 0) }
        let limit = try arguments.value(of: "--limit").map { try ArgumentValues.integer($0, for: "--limit", minimum: 0) }
        let last = try arguments.value(of: "--last").map { try ArgumentValues.integer($0, for: "--last", minimum: 0) }
        if let last, last > Self.pageSize { throw UsageError("--last may be at most \(Self.pageSize)") }
        switch (limit, last) {
        case (_?, _?): throw UsageError("--limit and --last cannot be combined")
        case (let limit?, nil): window = .oldest(limit)
        case (nil, let last?): window = .newest(last)
        case (nil, nil): window = nil
        }
        kinds = try arguments.values(of: "--kind")
        if kinds.contains("") { throw UsageError("option --kind needs a kind, e.g. store.write") }
    }

    /// The most events `trace.get` answers at once (docs/protocol.md, trace).
    static let pageSize = 10_000

    func run(in session: Session) throws {
        let events = try fetch { members in
            try session.call(Method.traceGet.rawValue, params: session.options.deviceParams(members))
        }
        session.output.show(.array(events), as: .trace)
    }

    /// The selected events, asking `call` for one page after another (`call` takes the members
    /// of `trace.get`'s params but `device`).
    func fetch(_ call: ([String: JSONValue]) throws -> JSONValue) throws -> [JSONValue] {
        var members: [String: JSONValue] = [:]
        if !kinds.isEmpty { members["kinds"] = .array(kinds.flatMap(Self.selectors).map(JSONValue.string)) }
        if case .newest(let count)? = window {
            if let since { members["since"] = .int(since) }
            members["last"] = .int(count)
            return try call(members).arrayValue ?? []
        }
        var events: [JSONValue] = []
        var after = since
        var wanted = window.map { if case .oldest(let count) = $0 { count } else { 0 } } ?? .max
        while wanted > 0 {
            members["since"] = after.map(JSONValue.int)
            members["limit"] = .int(min(wanted, Self.pageSize))
            let page = try call(members).arrayValue ?? []
            events += page
            wanted -= page.count
            guard page.count == Self.pageSize, let next = page.last?["seq"]?.intValue else { break }
            after = next
        }
        return events
    }

    /// Effect kinds without a dot (docs/protocol.md, Effects): a selector that names one selects
    /// that kind only — `app` is the app's own events, not `app.state` (`app.` selects that).
    static let kindsOfTheirOwn: Set<String> = [
        "app", "notification", "intent", "wifi", "call", "contacts", "focusMode", "openURL", "storekit", "race", "fault",
    ]

    /// What `--kind word` asks the daemon for: the kind itself, and the kinds under it
    /// (`monitor.`) unless the word names a kind of its own or already ends with a dot.
    static func selectors(_ word: String) -> [String] {
        if word.hasSuffix(".") || word.contains(".") || kindsOfTheirOwn.contains(word) { return [word] }
        return [word, word + "."]
    }
}
