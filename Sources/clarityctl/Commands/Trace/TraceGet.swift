import ControlProtocol

/// `clarityctl trace`: the device's trace events, one line each led by its `seq`. `--kind`
/// selects kinds and `--last` keeps the newest events; both work on what `trace.get` returns
/// (the oldest first), so `--limit` goes to the daemon only when no `--kind` filters after it.
struct TraceGet: ClarityCommand {
    static let help = CommandHelp(
        words: ["trace"], synopsis: "[--since SEQ] [--limit N | --last N] [--kind KIND ...]",
        abstract: "show the device's trace (trace.get)",
        details: [
            "  --since SEQ  only events after sequence number SEQ (the seq of an event seen before)",
            "  --limit N    the oldest N events",
            "  --last N     the newest N events",
            "  --kind KIND  only events of kind KIND, or of the kinds under it (monitor and monitor.",
            "               match monitor.threshold; app is the app's own events, app. is app.state);",
            "               repeat it for several kinds",
            "Each line: seq, t, kind, actor, then the other fields.",
            "Examples:",
            "  clarityctl trace --last 5",
            "  clarityctl trace --kind store.write --kind app",
        ])

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
        switch (limit, last) {
        case (_?, _?): throw UsageError("--limit and --last cannot be combined")
        case (let limit?, nil): window = .oldest(limit)
        case (nil, let last?): window = .newest(last)
        case (nil, nil): window = nil
        }
        kinds = try arguments.values(of: "--kind")
        if kinds.contains("") { throw UsageError("option --kind needs a kind, e.g. store.write") }
    }

    func run(in session: Session) throws {
        var members: [String: JSONValue] = [:]
        if let since { members["since"] = .int(since) }
        if kinds.isEmpty, case .oldest(let count)? = window { members["limit"] = .int(count) }
        let result = try session.call(Method.traceGet.rawValue, params: session.options.deviceParams(members))
        session.output.show(selected(from: result), as: .trace)
    }

    /// The events of `result` of the `--kind`s, then the window's end of them, in trace order.
    func selected(from result: JSONValue) -> JSONValue {
        guard case .array(var events) = result else { return result }
        if !kinds.isEmpty {
            events = events.filter { event in
                guard let kind = event["kind"]?.stringValue else { return false }
                return kinds.contains { Self.kind(kind, isSelectedBy: $0) }
            }
        }
        switch window {
        case .oldest(let count)?: events = Array(events.prefix(count))
        case .newest(let count)?: events = Array(events.suffix(count))
        case nil: break
        }
        return .array(events)
    }

    /// Effect kinds without a dot (docs/protocol.md, Effects): a selector that names one selects
    /// that kind only — `app` is the app's own events, not `app.state` (`app.` selects that).
    static let kindsOfTheirOwn: Set<String> = [
        "app", "notification", "intent", "wifi", "call", "contacts", "focusMode", "openURL", "storekit", "race",
    ]

    /// Whether `--kind selector` selects `kind`: the same kind, or one under it (`monitor` and
    /// `monitor.` select `monitor.threshold`) unless the selector names a kind of its own.
    static func kind(_ kind: String, isSelectedBy selector: String) -> Bool {
        if kind == selector { return true }
        if selector.hasSuffix(".") { return kind.hasPrefix(selector) }
        return !kindsOfTheirOwn.contains(selector) && kind.hasPrefix(selector + ".")
    }
}
