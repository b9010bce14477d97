import ControlProtocol

/// `clarityctl run FILE`: one schedule of a scenario (`scenario.run`), FIFO unless a strategy is
/// given, on a fresh world of the daemon's (never a user's device). Exit status 1 when it failed.
struct ScenarioRun: ClarityCommand {
    static let help = CommandHelp(
        words: ["run"],
        synopsis: "FILE [--strategy fifo|random|pct] [--seed S] [--depth D] [--quirk NAME]... [--trace] [--perfetto FILE] [--html FILE] [--standalone]",
        abstract: "run a scenario once (scenario.run)",
        details: [
            "  --strategy S          fifo (default: every job in the order it became ready), random or pct",
            "  --seed S              the strategy's seed (default 0)",
            "  --depth D             PCT's depth, 1 to 10 (default 3)",
        ] + ScheduleOptions.helpLines + [
            "Prints whether it passed, the failure, the number of trace events and the schedule's length;",
            "exit status 1 when it failed.",
            "Example:",
            "  clarityctl run my-scenario.json --strategy pct --seed 2 --trace",
        ], aliases: [["scenario", "run"]])

    let options: ScheduleOptions

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        self.options = try ScheduleOptions(arguments: &arguments)
    }

    func run(in session: Session) throws {
        try options.run(.scenarioRun, params: options.members, command: Self.help.name, in: session)
    }
}
