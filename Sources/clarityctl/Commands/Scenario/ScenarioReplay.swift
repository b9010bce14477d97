import ControlProtocol

/// `clarityctl replay FILE`: a failure of `explore` again (`scenario.replay`), from its schedule
/// (`--schedule`, the shrunk list of choices) or from its seed and strategy. Exit status 1 when
/// the schedule failed — the failure reproduced —, 0 when it passed.
struct ScenarioReplay: ClarityCommand {
    static let help = CommandHelp(
        words: ["replay"],
        synopsis: "FILE (--schedule LIST | --seed S --strategy S [--depth D] [--expected-decisions K]) "
            + "[--quirk NAME]... [--trace] [--perfetto FILE] [--standalone]",
        abstract: "replay a schedule of a scenario, e.g. a failure explore found (scenario.replay)",
        details: [
            "  --schedule LIST       the choices, comma-separated (0,0,1,2): a failure's schedule; past its end",
            "                        a replay picks as FIFO does",
            "  --seed S              with --strategy fifo|random|pct: the failure's seed",
            "  --depth D             PCT's depth, 1 to 10 (default 3)",
            "  --expected-decisions K",
            "                        PCT's estimate of a schedule's decisions (default: the FIFO run's)",
        ] + ScheduleOptions.helpLines + [
            "explore prints both replay commands of each failure, ready to paste.",
            "Exit status 1 when the schedule failed (the failure reproduced), 0 when it passed.",
            "Example:",
            "  clarityctl replay config/scenarios/clarity-stale-verification.json --seed 2 --strategy pct",
        ], aliases: [["scenario", "replay"]])

    let options: ScheduleOptions
    /// `scenario.replay`'s params.
    let params: [String: JSONValue]

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        let choices = try arguments.value(of: "--schedule").map(Self.choices)
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
                throw UsageError("replay needs --schedule LIST, or --seed S and --strategy fifo|random|pct")
            }
            guard schedule.seed != nil else { throw UsageError("--strategy needs --seed S (or give --schedule LIST)") }
            guard schedule.strategy != nil else { throw UsageError("--seed needs --strategy fifo|random|pct") }
            if expectedDecisions != nil, schedule.strategy != "pct" {
                throw UsageError("--expected-decisions is PCT's: it goes with --strategy pct")
            }
        }
        var params = schedule.members
        params["schedule"] = choices.map { .array($0.map(JSONValue.int)) }
        params["expectedDecisions"] = expectedDecisions.map(JSONValue.int)
        self.params = params
    }

    /// `--schedule`'s list: choices (integers ≥ 0) separated by commas; empty replays FIFO.
    static func choices(_ text: String) throws -> [Int] {
        guard !text.isEmpty else { return [] }
        return try text.split(separator: ",", omittingEmptySubsequences: false).map { word in
            guard let choice = Int(word), choice >= 0 else {
                throw UsageError("--schedule must be choices (integers ≥ 0) separated by commas; '\(word)' is not one")
            }
            return choice
        }
    }

    func run(in session: Session) throws {
        try options.run(.scenarioReplay, params: params, command: Self.help.name, in: session)
    }

    /// The commands that replay `failure` (one of `scenario.explore`'s) of `file` on `daemon`:
    /// by its schedule, and by its seed and strategy; each with `--quirk` for the quirks it had
    /// on that the file does not switch on itself (swarm's).
    static func commandLines(for failure: JSONValue, file: ScenarioFile, daemon: ScenarioDaemon) -> [String] {
        let head = ["clarityctl", "replay", file.path] + daemon.words
        let quirks = (failure["quirks"]?.objectValue ?? [:])
            .filter { $0.value == true && !file.ownQuirks.contains($0.key) }
            .keys.sorted().flatMap { ["--quirk", $0] }
        let schedule = (failure["schedule"]?.arrayValue ?? []).map(PlainText.scalar).joined(separator: ",")
        var bySeed = ["--seed", failure["seed"].map(PlainText.scalar) ?? "0"]
        bySeed += ["--strategy", failure["strategy"]?.stringValue ?? "pct"]
        if let depth = failure["depth"] { bySeed += ["--depth", PlainText.scalar(depth)] }
        if let expected = failure["expectedDecisions"] { bySeed += ["--expected-decisions", PlainText.scalar(expected)] }
        return [ShellWords.line(head + ["--schedule", schedule] + quirks), ShellWords.line(head + bySeed + quirks)]
    }
}
