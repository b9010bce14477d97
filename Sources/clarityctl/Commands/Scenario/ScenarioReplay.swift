import ControlProtocol

/// `clarityctl replay FILE`: a failure of `explore` again (`scenario.replay`), from its schedule
/// (`--schedule`, the shrunk list of choices) or from its seed and strategy. Exit status 1 when
/// the schedule failed — the failure reproduced —, 0 when it passed.
struct ScenarioReplay: ClarityCommand {
    static let help = CommandHelp(
        words: ["replay"],
        synopsis: "FILE (--schedule TOKEN|LIST | --seed S --strategy S [--depth D] [--expected-decisions K]) "
            + "[--until decision:N|seq:N] [--step] [--device NAME] [--quirk NAME]... [--trace] [--perfetto FILE] [--html FILE] [--standalone]",
        abstract: "replay a schedule of a scenario, e.g. a failure explore found (scenario.replay)",
        details: [
            "  --schedule TOKEN      a failure's schedule as explore prints it (v1:<scenario hash>:12@3,40@1):",
            "                        the picks that differ from running each process on; or LIST, the task",
            "                        picked at every decision, comma-separated (1,2,1,3), as run --json gives it.",
            "                        A schedule that no longer fits stops with where it diverged",
            "  --seed S              with --strategy fifo|random|pct: the failure's seed",
            "  --depth D             PCT's depth, 1 to 10 (default 3)",
            "  --expected-decisions K",
            "                        PCT's estimate of a schedule's decisions (default: the FIFO run's)",
            "  --until decision:N    leave the replay's device standing before decision N (N = its decision",
            "                        count: at its end), a live device every command then inspects and drives;",
            "  --until seq:N         or at the first decision after trace event N",
            "  --device NAME         the device's name (default <scenario>-at-d<N>, or -at-end)",
            "  --step                walk the replay a decision at a time from decision 0 (or --until's), the",
            "                        device standing at each: Enter or n the next, c to the end, q quits",
            "                        (the device stays). Not a terminal: one command a line",
        ] + ScheduleOptions.helpLines + [
            "explore prints both replay commands of each failure, ready to paste.",
            "Exit status 1 when the schedule failed (the failure reproduced), 0 when it passed.",
            "Example:",
            "  clarityctl replay my-scenario.json --seed 2 --strategy pct",
            "  clarityctl replay my-scenario.json --schedule v2:… --until decision:7 && clarityctl --device my-scenario-at-d7 device state",
        ], aliases: [["scenario", "replay"]])

    let options: ScheduleOptions
    /// `scenario.replay`'s params.
    let params: [String: JSONValue]
    /// `--step`: walk the replay a decision at a time.
    let steps: Bool

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        let choices = try arguments.value(of: "--schedule").map(Self.schedule)
        let expectedDecisions = try arguments.value(of: "--expected-decisions").map {
            try ArgumentValues.integer($0, for: "--expected-decisions", minimum: 1)
        }
        let schedule = try ScheduleOptions(arguments: &arguments)
        self.options = schedule
        if choices != nil {
            guard schedule.seed == nil else { throw UsageError("--schedule and --seed cannot be combined") }
            guard schedule.strategy == nil, expectedDecisions == nil else {
                throw UsageError(
                    "a --schedule replays under any strategy: --strategy, --depth and --expected-decisions go with --seed")
            }
        } else {
            guard schedule.seed != nil || schedule.strategy != nil else {
                throw UsageError("replay needs --schedule TOKEN, or --seed S and --strategy fifo|random|pct")
            }
            guard schedule.seed != nil else { throw UsageError("--strategy needs --seed S (or give --schedule TOKEN)") }
            guard schedule.strategy != nil else { throw UsageError("--seed needs --strategy fifo|random|pct") }
            if expectedDecisions != nil, schedule.strategy != "pct" {
                throw UsageError("--expected-decisions is PCT's: it goes with --strategy pct")
            }
        }
        let until = try arguments.value(of: "--until").map(Self.until)
        steps = arguments.flag("--step")
        if steps, schedule.html != nil { throw UsageError("--html writes a whole replay: it does not go with --step") }
        if until != nil || steps || options.deviceWasGiven, schedule.daemon.standalone {
            throw UsageError("--until, --step and --device leave a device on the daemon: a --standalone one goes with the call")
        }
        var params = schedule.members
        params["schedule"] = choices
        params["expectedDecisions"] = expectedDecisions.map(JSONValue.int)
        params["until"] = until ?? (steps ? ["decision": 0] : nil)
        if options.deviceWasGiven { params["device"] = .string(options.device) }
        self.params = params
    }

    /// `--until decision:N` or `--until seq:N` (N ≥ 0), as `scenario.replay`'s `until`.
    static func until(_ text: String) throws -> JSONValue {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, ["decision", "seq"].contains(parts[0]), let number = Int(parts[1]), number >= 0 else {
            throw UsageError("--until must be decision:N or seq:N with N ≥ 0, e.g. decision:7; got '\(text)'")
        }
        return [parts[0]: .int(number)]
    }

    /// `--schedule`: a token (`v1:…`, checked by the daemon), or task numbers (integers ≥ 0)
    /// separated by commas.
    static func schedule(_ text: String) throws -> JSONValue {
        if text.hasPrefix("v") { return .string(text) }
        guard !text.isEmpty else { return .array([]) }
        return .array(
            try text.split(separator: ",", omittingEmptySubsequences: false).map { word in
                guard let task = Int(word), task >= 0 else {
                    throw UsageError(
                        "--schedule must be a token (v1:…) or task numbers (integers ≥ 0) separated by commas; '\(word)' is not one")
                }
                return .int(task)
            })
    }

    func run(in session: Session) throws {
        guard steps else {
            return try options.run(.scenarioReplay, params: params, command: Self.help.name, in: session)
        }
        try ReplayStepper(options: options, params: params).walk(in: session)
    }

    /// The commands that replay `failure` (one of `scenario.explore`'s) of `file` on `daemon`:
    /// by its schedule, and by its seed and strategy; each with `--quirk` for the quirks it had
    /// on that the file does not switch on itself (swarm's).
    static func commandLines(for failure: JSONValue, file: ScenarioFile, daemon: ScenarioDaemon) -> [String] {
        let head = ["clarityctl", "replay", file.path] + daemon.words
        let quirks = (failure["quirks"]?.objectValue ?? [:])
            .filter { $0.value == true && !file.ownQuirks.contains($0.key) }
            .keys.sorted().flatMap { ["--quirk", $0] }
        let schedule = failure["schedule"]?.stringValue ?? ""

        var bySeed = ["--seed", failure["seed"].map(PlainText.scalar) ?? "0"]
        bySeed += ["--strategy", failure["strategy"]?.stringValue ?? "pct"]
        if let depth = failure["depth"] { bySeed += ["--depth", PlainText.scalar(depth)] }
        if let expected = failure["expectedDecisions"] { bySeed += ["--expected-decisions", PlainText.scalar(expected)] }
        let byToken = ShellWords.line(head + ["--schedule", schedule] + quirks)
        // A bounded search's schedule has no seed to replay it by.
        guard failure["strategy"]?.stringValue != "dfs" else { return [byToken] }
        return [byToken, ShellWords.line(head + bySeed + quirks)]
    }
}
