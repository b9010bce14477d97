import ControlProtocol
import Foundation

/// `clarityctl explore FILE|DIR`: many schedules of a scenario (`scenario.explore`), each on a
/// fresh world, to find the interleavings that break it — or of every `*.json` scenario in DIR.
/// Prints the summary and each failure with the `clarityctl replay` commands that reproduce it;
/// `--junit FILE` writes a JUnit report; exit status 1 when a scenario did not pass (a schedule
/// failed, a scenario that pins a race with `expectFailure` had none fail, no schedule ran, or
/// it was cancelled before it ran them all). Of a directory, a scenario that cannot be explored
/// (not JSON, or refused by the daemon) is reported as an error and the others are explored all
/// the same.
///
/// Each exploration says on stderr as it starts which request it is and how to cancel it
/// (``ExplorationCall``); Ctrl-C cancels it, shows what it found so far with the command that
/// goes on from there, and exits 130 (docs/clarityctl.md, "Stopping an exploration").
struct ScenarioExplore: ClarityCommand {
    static let help = CommandHelp(
        words: ["explore"],
        synopsis: "FILE|DIR [--strategy random|pct|dfs] [--depth D] [--bound K] [--no-sleep-sets] [--schedules N] [--seed-start S] [--shard i/n] "
            + "[--jobs N] [--time-limit SECONDS] [--swarm] [--all] [--plausible] [--junit FILE] [--perfetto FILE] [--html FILE|DIR] [--shrunk-scenario FILE] [--standalone]",
        abstract: "run many schedules of a scenario to find races (scenario.explore)",
        details: [
            "  --strategy S          pct (default: random priorities, D - 1 change points), random, or dfs:",
            "                        every schedule with at most --bound preemptions, depth first (exhaustive)",
            "  --depth D             PCT's depth: the ordering constraints a bug may need, 1 to 10 (default 3)",
            "  --bound K             dfs's bound: the most preemptions a schedule may have, 0 to 10 (default: none,",
            "                        bounds 0, 1, … until no schedule needs more: every schedule)",
            "  --no-sleep-sets       dfs runs every order of steps that commute, not one of them (slower)",
            "  --schedules N         how many schedules (default \(defaultSchedules), with dfs \(dfsSchedules)); schedule i has seed S + i",
            "  --seed-start S        the first schedule's seed (default 0)",
            "  --shard i/n           only schedules i, i + n, i + 2n… (0 ≤ i < n): one job of n in a CI matrix",
            "  --jobs N              schedules run at once (default: the daemon's cores)",
            "  --time-limit SECONDS  start no schedule after that long",
            "  --swarm               each schedule switches a seeded random set of platform quirks on",
            "  --all                 run every schedule (default: stop at the first failure)",
            "  --plausible           count only failing schedules whose every preemption is likely (no stall",
            "                        longer than a scheduler quantum, no fault); the others are set aside",
            "  --junit FILE          write a JUnit report: a test case per scenario, the story and the",
            "                        replay command in a failure",
            PerfettoFile.helpLine,
            "  --html FILE|DIR       write the first failure's replay as a self-contained HTML report to FILE;",
            "                        of a directory of scenarios, one report per failing scenario in DIR",
            "                        (<scenario name>.html), linked from its --junit test case (system-out)",
            ShrunkScenarioFile.helpLine,
            ScenarioDaemon.helpLine,
            "Prints the summary, then each failure with the clarityctl replay commands that reproduce it.",
            "With a directory, explores every *.json scenario in it, in name order; one that cannot be explored",
            "(not JSON, or refused by the daemon) is reported (an errored test case with --junit), and the rest go on.",
            "A scenario with \"expectFailure\": true pins a known race: it passes when a schedule fails.",
            "Exit status 1 when a scenario did not pass (a schedule failed, none ran, none failed where a",
            "failure is expected, or it was cancelled before the rest ran) or could not be explored, 0 when all",
            "passed. Waits as long as the exploration takes unless --timeout is given: on a terminal a progress bar",
            "on stderr, elsewhere (a CI log) a progress line every 5 s.",
            "As it starts it says on stderr its request id and connection, and the clarityctl cancel command",
            "that stops it. Ctrl-C stops it too: the summary so far, the seeds covered and the command that",
            "resumes from there are printed, exit status 130; Ctrl-C again quits at once.",
            "Example:",
            "  clarityctl explore my-scenario.json --schedules 200",
        ], aliases: [["scenario", "explore"]])

    static let defaultSchedules = 1000
    static let dfsSchedules = 10_000_000

    /// The scenarios: the one FILE, or every `*.json` of DIR, each read or why it could not be.
    let files: [(path: String, file: Result<ScenarioFile, any Error>)]
    /// DIR was given: each scenario is reported on its own, one that cannot be explored too.
    let ofDirectory: Bool
    let daemon: ScenarioDaemon
    let schedules: Int
    let params: [String: JSONValue]
    let perfetto: PerfettoFile?
    let shrunkScenario: ShrunkScenarioFile?
    let junit: String?
    /// `--html`: the report file (of one scenario) or directory (of a directory of them).
    let html: String?
    /// The seeds the schedules run with, to say which ran and where to go on.
    let seeds: SeedRange

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        daemon = ScenarioDaemon(arguments: &arguments)
        perfetto = try PerfettoFile.take(from: &arguments)
        shrunkScenario = try ShrunkScenarioFile.take(from: &arguments)
        junit = try arguments.value(of: "--junit")
        if junit?.isEmpty == true { throw UsageError("option --junit needs a file name") }
        html = try OutputFile.take("--html", from: &arguments)?.path
        var params: [String: JSONValue] = [:]
        let strategy = try arguments.value(of: "--strategy").map {
            try ArgumentValues.choice($0, for: "--strategy", among: ["random", "pct", "dfs"])
        }
        params["strategy"] = strategy.map(JSONValue.string)
        if let depth = try arguments.value(of: "--depth").map(ScheduleOptions.depth) {
            if let strategy, strategy != "pct" { throw UsageError("--depth is PCT's: it does not go with --strategy \(strategy)") }
            params["depth"] = .int(depth)
        }
        if let bound = try arguments.value(of: "--bound") {
            guard strategy == "dfs" else { throw UsageError("--bound is dfs's: it goes with --strategy dfs") }
            let value = try ArgumentValues.integer(bound, for: "--bound", minimum: 0)
            guard value <= 10 else { throw UsageError("--bound must be 0 to 10, got '\(bound)'") }
            params["preemptionBound"] = .int(value)
        }
        if arguments.flag("--no-sleep-sets") {
            guard strategy == "dfs" else { throw UsageError("--no-sleep-sets is dfs's: it goes with --strategy dfs") }
            params["sleepSets"] = false
        }
        let given = try arguments.value(of: "--schedules").map {
            try ArgumentValues.integer($0, for: "--schedules", minimum: 1)
        }
        // dfs runs until it has run every schedule within its bound, unless told to stop sooner.
        schedules = given ?? (strategy == "dfs" ? Self.dfsSchedules : Self.defaultSchedules)
        params["schedules"] = .int(schedules)
        let seedStart = try arguments.value(of: "--seed-start").map {
            try ArgumentValues.integer($0, for: "--seed-start", minimum: 0)
        }
        params["seedStart"] = seedStart.map(JSONValue.int)
        let shard = try arguments.value(of: "--shard").map(Self.shard)
        params["shard"] = shard.map { .string("\($0.index)/\($0.count)") }
        seeds = SeedRange(
            seedStart: seedStart ?? 0, schedules: schedules, shardIndex: shard?.index ?? 0, shardCount: shard?.count ?? 1)
        params["jobs"] = try arguments.value(of: "--jobs").map {
            .int(try ArgumentValues.integer($0, for: "--jobs", minimum: 1))
        }
        params["timeLimit"] = try arguments.value(of: "--time-limit").map(Self.timeLimit)
        if arguments.flag("--swarm") { params["swarm"] = true }
        if arguments.flag("--all") { params["stopAtFirst"] = false }
        if arguments.flag("--plausible") { params["plausible"] = true }
        if shrunkScenario != nil { params["shrinkScenario"] = true }
        let path = try arguments.positional("FILE|DIR (a scenario, JSON, or a directory of them)")
        var isDirectory: ObjCBool = false
        ofDirectory = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        if ofDirectory, shrunkScenario != nil { throw UsageError("--shrunk-scenario goes with one scenario FILE, not a directory") }
        files = try Self.scenarios(at: path)
        self.params = params
        if let html { try Self.prepareReports(at: html, ofDirectory: ofDirectory) }
    }

    /// Checks `--html`'s path before anything runs: for one scenario a file in a directory that
    /// is there; for a directory of scenarios a directory, made when it is not there yet.
    static func prepareReports(at path: String, ofDirectory: Bool) throws {
        guard ofDirectory else { return try HTMLReportFile(path: path).check() }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw UsageError("--html \(path): not a directory (one report per failing scenario goes there)") }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        } catch {
            throw UsageError("--html \(path): cannot make the directory: \(error.localizedDescription)")
        }
    }

    /// Where the report of `file` goes: `--html` itself for one scenario, `DIR/<name>.html` for a
    /// directory of them.
    private func reportPath(of file: ScenarioFile) -> String? {
        guard let html else { return nil }
        guard ofDirectory else { return html }
        return (html as NSString).appendingPathComponent(HTMLReportFile.name(of: file) + ".html")
    }

    /// `--shard i/n`, once it is whole numbers with 0 ≤ i < n.
    static func shard(_ text: String) throws -> (index: Int, count: Int) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let index = parts[0], let count = parts[1], index >= 0, index < count else {
            throw UsageError("--shard must be i/n with 0 ≤ i < n (e.g. 0/4), got '\(text)'")
        }
        return (index, count)
    }

    /// `--time-limit`: seconds, more than 0.
    static func timeLimit(_ text: String) throws -> JSONValue {
        let seconds = try ArgumentValues.number(text, for: "--time-limit")
        guard let value = seconds.doubleValue, value > 0 else {
            throw UsageError("--time-limit must be more than 0 seconds, got '\(text)'")
        }
        return seconds
    }

    /// The scenario at `path` (one that cannot be read is a usage error), or every `*.json`
    /// scenario in the directory at `path`, each read or why it could not be.
    static func scenarios(at path: String) throws -> [(path: String, file: Result<ScenarioFile, any Error>)] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return [(path, .success(try ScenarioFile(path: path)))]
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        guard !names.isEmpty else { throw UsageError("directory \(path): holds no *.json scenario") }
        return names.map { name in
            let file = (path as NSString).appendingPathComponent(name)
            return (file, Result { try ScenarioFile(path: file) })
        }
    }

    func run(in session: Session) throws {
        var junit = self.junit.map(JUnitReport.init(path:))
        var notPassed: [String] = []
        var errored: [String] = []
        for (position, entry) in files.enumerated() {
            if ofDirectory {
                if position > 0 { session.output.note("") }
                session.output.note("== \(entry.path)")
            }
            let exploration: Exploration
            let file: ScenarioFile
            do {
                file = try entry.file.get()
                exploration = try explore(file, in: session)
            } catch where ofDirectory && (error is UsageError || error is RPCError) {
                // Not JSON, or refused by the daemon (-32005 naming the field…): the others go on.
                let message = (error as? UsageError)?.message ?? (error as? RPCError)?.message ?? "\(error)"
                session.output.show(["file": .string(entry.path), "error": .string(message)], lines: ["error: \(message)"])
                junit?.add(file: entry.path, error: message)
                errored.append(entry.path)
                continue
            }
            let report = exploration.report
            try shrunkScenario?.write(from: report)
            let replayLines = report["failures"]?.arrayValue?.first.map {
                ScenarioReplay.commandLines(for: $0, file: file, daemon: daemon)
            } ?? []
            let reportFile = try writeReport(of: report, file: file, in: session)
            junit?.add(file: file.path, report: report, replayLines: replayLines, htmlReport: reportFile)
            if exploration.interrupted {
                try junit?.write()
                throw interruption(of: exploration, file: file, notExplored: files[(position + 1)...].map(\.path))
            }
            if let reason = ExplorationVerdict(report).reason {
                notPassed.append("explore: " + (ofDirectory ? "\(file.path): " : "") + reason)
            }
        }
        try junit?.write()
        if ofDirectory {
            session.output.note("")
            let passed = files.count - notPassed.count - errored.count
            session.output.note(
                "\(files.count) scenarios: \(passed) passed, \(notPassed.count) did not"
                    + (errored.isEmpty ? "" : ", \(errored.count) could not be explored (\(errored.joined(separator: ", ")))"))
        }
        let problems = notPassed + errored.map { "explore: \($0) could not be explored" }
        if !problems.isEmpty { throw ScenarioFailed(message: problems.joined(separator: "; ")) }
    }

    /// One scenario's exploration: the daemon's report, whether Ctrl-C stopped it, and the
    /// command that goes on where it stopped (when it stopped early and some schedules are left).
    private struct Exploration {
        let report: JSONValue
        let interrupted: Bool
        let resume: [String]?
    }

    /// Explores one scenario and shows its report.
    private func explore(_ file: ScenarioFile, in session: Session) throws -> Exploration {
        var params = params
        params["scenario"] = file.scenario
        params["progress"] = true
        let request = JSONValue.object(params)
        let label = ofDirectory ? "explore: \(file.path)" : "explore"
        let style = ProgressLine.style
        let shard = params["shard"]?.stringValue.map { ", shard \($0)" } ?? ""
        let status = ProgressLine.Status(
            style == .terminal
                ? "exploring \(schedules) schedules\(shard)…"
                : ExplorationProgressView.plain(label: label, done: 0, of: seeds.count, failed: 0, covered: nil, seeds: seeds))
        let (report, interrupted) = try daemon.withDaemon(of: session, handlesInterrupt: true) { session in
            let call = try ExplorationCall(in: session)
            return try ProgressLine.whileRunning(status, style: style) { status in
                try call.run(request, label: label) { method, progress in
                    guard method == ServerNotification.scenarioProgress.rawValue,
                        let text = ExplorationProgressView.text(progress, style: style, label: label, seeds: seeds)
                    else { return }
                    status.set(text)
                }
            }
        }
        let resume = resumption(of: report, file: file)
        let lines = ScenarioView.explorationLines(report, seeds: seeds, resume: resume.map(ShellWords.line)) {
            ScenarioReplay.commandLines(for: $0, file: file, daemon: daemon)
        }
        session.output.show(report, lines: lines)
        if let perfetto, let failure = report["failures"]?.arrayValue?.first {
            var replay: [String: JSONValue] = ["scenario": file.scenario, "traceFormat": "perfetto"]
            replay["schedule"] = failure["schedule"]
            replay["quirks"] = failure["quirks"]
            try perfetto.write(from: try daemon.call(.scenarioReplay, .object(replay), in: session))
        }
        return Exploration(report: report, interrupted: interrupted, resume: resume)
    }

    /// With `--html`: replays the first failure of `report` with `report: true` and writes its
    /// page; returns where, or nil (no `--html`, or no failure: then it says so on stderr).
    private func writeReport(of report: JSONValue, file: ScenarioFile, in session: Session) throws -> String? {
        guard let path = reportPath(of: file) else { return nil }
        guard let failure = report["failures"]?.arrayValue?.first else {
            session.output.note("explore: no failure\(ofDirectory ? " of \(file.path)" : ""): no report written to \(path)")
            return nil
        }
        var replay: [String: JSONValue] = ["scenario": file.scenario, "report": true]
        replay["schedule"] = failure["schedule"]
        replay["quirks"] = failure["quirks"]
        let result = try daemon.call(.scenarioReplay, .object(replay), in: session)
        let quirks = (failure["quirks"]?.objectValue ?? [:]).filter { $0.value == true && !file.ownQuirks.contains($0.key) }
        try HTMLReportFile(path: path).write(
            from: result, scenario: file,
            replayCommand: HTMLReportFile.replayCommand(
                token: failure["schedule"]?.stringValue, scenario: file, daemon: daemon, quirks: Array(quirks.keys)))
        return path
    }

    /// The command that explores the schedules left after `report`, leaving out no seed: when it
    /// was stopped before it ran them all (cancelled, the daemon stopping, its time limit), and
    /// some are left. Nil otherwise, and for `dfs`, whose schedules have no seeds.
    private func resumption(of report: JSONValue, file: ScenarioFile) -> [String]? {
        guard let stoppedBy = report["stoppedBy"]?.stringValue, ["cancelled", "shutdown", "timeLimit"].contains(stoppedBy),
            let covered = report["covered"]?.intValue, let next = seeds.resumption(afterCovered: covered)
        else { return nil }
        return ["clarityctl", "explore", file.path] + choiceWords + daemon.words
            + ["--seed-start", String(next.seedStart), "--schedules", String(next.schedules)]
    }

    /// The options given that choose how schedules are made and run, as words: all but the
    /// seeds, the number of schedules and the reports.
    private var choiceWords: [String] {
        var words: [String] = []
        for (member, option) in [("strategy", "--strategy"), ("depth", "--depth"), ("shard", "--shard"), ("jobs", "--jobs"), ("timeLimit", "--time-limit")] {
            if let value = params[member] { words += [option, PlainText.scalar(value)] }
        }
        if params["swarm"] == true { words.append("--swarm") }
        if params["stopAtFirst"] == false { words.append("--all") }
        if params["plausible"] == true { words.append("--plausible") }
        return words
    }

    /// What Ctrl-C during `exploration` of `file` ends `explore` with: how far it got, the
    /// command that goes on, and the scenarios of the directory not explored.
    private func interruption(of exploration: Exploration, file: ScenarioFile, notExplored: [String]) -> Interrupted {
        let schedules = exploration.report["schedules"]?.intValue ?? 0
        var message = "explore: " + (ofDirectory ? "\(file.path): " : "")
            + "interrupted (Ctrl-C) after \(PlainText.counted(schedules, "schedule"))"
        if let resume = exploration.resume { message += "; go on with: " + ShellWords.line(resume) }
        if !notExplored.isEmpty { message += "; not explored: " + notExplored.joined(separator: ", ") }
        return Interrupted(message: message)
    }
}
