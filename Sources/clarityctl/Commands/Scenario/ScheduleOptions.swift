import ControlProtocol

/// What `run` and `replay` share: the scenario FILE and its daemon (`--standalone`), how the
/// schedule is made (`--strategy`, `--seed`, `--depth`), the quirks switched on over the
/// scenario's (`--quirk`, repeatable), whether to print the trace (`--trace`); and how the one
/// schedule's result is shown, with exit status 1 when it failed.
struct ScheduleOptions {
    static let strategies = ["fifo", "random", "pct"]

    static let helpLines = [
        "  --quirk NAME          switch that platform quirk on over the scenario's (repeatable)",
        "  --trace               print the schedule's trace first, as clarityctl trace does",
        PerfettoFile.helpLine,
        HTMLReportFile.helpLine,
        ScenarioDaemon.helpLine,
    ]

    let file: ScenarioFile
    let daemon: ScenarioDaemon
    let strategy: String?
    let seed: Int?
    let depth: Int?
    let quirks: [String]
    let showsTrace: Bool
    let perfetto: PerfettoFile?
    let html: HTMLReportFile?

    /// Takes these options, then FILE: a command takes its own options first.
    init(arguments: inout Arguments) throws {
        daemon = ScenarioDaemon(arguments: &arguments)
        strategy = try arguments.value(of: "--strategy").map {
            try ArgumentValues.choice($0, for: "--strategy", among: Self.strategies)
        }
        seed = try arguments.value(of: "--seed").map { try ArgumentValues.integer($0, for: "--seed", minimum: 0) }
        depth = try arguments.value(of: "--depth").map(Self.depth)
        if depth != nil, strategy != "pct" { throw UsageError("--depth is PCT's: it goes with --strategy pct") }
        quirks = try arguments.values(of: "--quirk")
        if quirks.contains("") { throw UsageError("option --quirk needs a quirk's name, e.g. batchedThresholds") }
        showsTrace = arguments.flag("--trace")
        perfetto = try PerfettoFile.take(from: &arguments)
        html = try HTMLReportFile.take(from: &arguments)
        file = try ScenarioFile(arguments: &arguments)
    }

    /// PCT's depth, 1 to 10 (`--depth`).
    static func depth(_ text: String) throws -> Int {
        guard let depth = Int(text), (1...10).contains(depth) else {
            throw UsageError("--depth must be 1 to 10, got '\(text)'")
        }
        return depth
    }

    /// The params these options make: `scenario`, and `strategy`, `seed`, `depth`, `quirks` when given.
    var members: [String: JSONValue] {
        var members: [String: JSONValue] = ["scenario": file.scenario]
        members["strategy"] = strategy.map(JSONValue.string)
        members["seed"] = seed.map(JSONValue.int)
        members["depth"] = depth.map(JSONValue.int)
        if !quirks.isEmpty { members["quirks"] = .object(Dictionary(quirks.map { ($0, true) }) { first, _ in first }) }
        if perfetto != nil { members["traceFormat"] = "perfetto" }
        if html != nil { members["report"] = true }
        return members
    }

    /// Calls `method` with `params`, shows the result, and throws ``ScenarioFailed`` when the
    /// schedule failed; `command` names it in that message.
    func run(_ method: Method, params: [String: JSONValue], command: String, in session: Session) throws {
        try html?.check()
        var result = try daemon.call(method, .object(params), in: session)
        try perfetto?.write(from: result)
        try html?.write(
            from: result, scenario: file,
            replayCommand: HTMLReportFile.replayCommand(
                token: result["token"]?.stringValue, scenario: file, daemon: daemon, quirks: quirks))
        if case .object(var members) = result, members["perfetto"] != nil || members["report"] != nil {
            members["perfetto"] = nil
            members["report"] = nil
            result = .object(members)
        }
        session.output.show(result, lines: ScenarioView.scheduleLines(result, trace: showsTrace))
        try Self.check(result, command: command)
    }

    /// Throws ``ScenarioFailed`` when the schedule of `result` failed; `command` names it.
    static func check(_ result: JSONValue, command: String) throws {
        if result["passed"]?.boolValue != true {
            let failure = result["failures"]?.arrayValue?.first
            let place = [failure?["step"]?.stringValue, failure?["invariant"]?.stringValue].compactMap { $0 }
            let detail = place.isEmpty ? "" : " (\(place.joined(separator: ", ")))"
            throw ScenarioFailed(message: "\(command): the schedule failed\(detail)")
        }
    }
}
