@_spi(Host) import SimulatediOS

/// A failing schedule as `scenario.explore` reports it: what broke, and everything needed to
/// replay it (docs/scenarios.md, "Schedules, strategies and replay").
public struct ExplorationFailure: Sendable, Encodable {
    public let message: String
    public let step: String?
    public let invariant: String?
    /// What sets the failure apart (a lost update: the key, and who overwrote whom).
    public let kind: String?
    /// The schedule's index in the exploration (seed = seedStart + index); -1 for the scenario's
    /// own schedule (FIFO), which is tried first.
    public let scheduleIndex: Int
    public let seed: UInt64
    public let strategy: ExplorationPlan.StrategyKind
    public let depth: Int?
    public let expectedDecisions: Int?
    /// The shortest schedule found that still fails this way, as a token to paste
    /// (``ScheduleToken``): replays it under any strategy, in any build that makes the same
    /// decisions.
    public let schedule: String
    /// Switches away from a process that could have gone on (CHESS's preemptions), in the shrunk
    /// schedule and in the schedule as first found; the deviations from the non-preemptive
    /// schedule, and the decisions of the schedule as first found. The scenario's own (FIFO)
    /// schedule preempts no one, it takes turns: a failure of it, told as FIFO ran it, counts 0
    /// preemptions and its turns as ``switches``, as `scenario.run` does.
    public let preemptions: Int
    public let originalPreemptions: Int
    /// Every switch of the shrunk schedule, preemption or FIFO's turn.
    public let switches: Int
    public let deviations: Int
    public let originalLength: Int
    /// The shrunk schedule told as a story: the operations around each switch, then the
    /// failure, its causal chain and the reads that differ from the sequential run.
    public let story: [String]
    /// The operations that led to the failure (``CausalChain``), and every read whose writer
    /// differs from the sequential run's (``ReadsFrom``).
    public let causalChain: [CausalLink]
    public let readsFromDiff: [ReadsFromChange]
    public let quirks: [String: Bool]
    /// The faults the shrunk schedule injects (`jetsam@3`), also in ``schedule``; empty when none.
    public let faults: [String]
    /// How likely the shrunk schedule is on a real iPhone (`likely`, `needs a stall`, `needs a
    /// fault`), and the stall each of its preemptions needs (``SchedulePlausibility``).
    public let plausibility: SchedulePlausibility.Class
    public let stalls: [SchedulePlausibility.Stall]
    /// Failing schedules of the same failure seen in the exploration that were less plausible
    /// than this one (the report shows the most plausible first); nil when not counted.
    public internal(set) var lessPlausibleSeen: Int?
    public let build: BuildInfo

    init(
        reason: ScenarioFailureReason, index: Int, seed: ScheduleSeed, shrunk: ScenarioOutcome, original: ScenarioOutcome,
        explanation: FailureExplanation?, scenarioHash: String, build: BuildInfo
    ) {
        message = reason.message
        step = reason.step
        invariant = reason.invariant
        kind = reason.kind
        scheduleIndex = index
        self.seed = seed.seed
        strategy = seed.strategy
        depth = seed.depth
        expectedDecisions = seed.expectedDecisions
        schedule = ScheduleToken(scenarioHash: scenarioHash, deviations: shrunk.deviations, faults: shrunk.faults).description
        faults = shrunk.faults.sorted().map(\.description)
        // FIFO's own schedule, not shrunk to another: its switches are turns.
        let fifoTurns = seed.strategy == .fifo && shrunk.deviations == original.deviations
        preemptions = fifoTurns ? 0 : shrunk.preemptions
        originalPreemptions = seed.strategy == .fifo ? 0 : original.preemptions
        switches = shrunk.preemptions
        deviations = shrunk.deviations.count
        originalLength = original.decisions
        story = ScheduleStory.lines(of: shrunk, explanation: explanation)
        causalChain = explanation?.chain.links ?? []
        readsFromDiff = explanation?.readsFromDiff ?? []
        let plausible = SchedulePlausibility(shrunk)
        plausibility = plausible.plausibility
        stalls = plausible.stalls
        quirks = original.quirks.filter(\.value)
        self.build = build
    }
}

/// What an exploration did.
public struct ExplorationReport: Sendable, Encodable {
    /// Schedules run (this shard's), and how many failed.
    public let schedules: Int
    public let failed: Int
    /// The seed of the lowest-index failing schedule.
    public let firstFailingSeed: UInt64?
    public let failures: [ExplorationFailure]
    public let schedulesPerSecond: Double
    public let stepsPerSecond: Double
    /// Scheduling decisions (choices among ready tasks at platform calls) per second.
    public let decisionsPerSecond: Double
    public let steps: Int
    public let decisions: Int
    public let seconds: Double
    /// Why it stopped before running every schedule: `failure`, `timeLimit` or `cancelled`.
    public let stoppedBy: String?
    public let jobs: Int
    /// The decision count of the scenario's FIFO run (PCT's estimate).
    public let expectedDecisions: Int
    /// `dfs`: whether every schedule within the bound was run (none left), and the bound.
    public var exhaustive: Bool?
    public var bound: Int?
    /// `dfs`: runs cut short because they repeated an order of commuting steps already run
    /// (sleep sets); not counted in `schedules`.
    public var pruned: Int?
    /// Of the schedules asked for (this shard's), how many from the first have all run; nil
    /// for `dfs`, whose schedules have no seeds (``ExplorationProgress/covered``).
    public var covered: Int?
    /// Random and PCT: the interleavings (reads-from classes) the counted schedules covered,
    /// how many are new lately, and the chance the next schedule finds a new one.
    public var coverage: ExplorationCoverage?
    /// With ``ExplorationPlan/plausibleOnly``: the failing schedules set aside because they
    /// need a stall or a fault (not counted in `failed`).
    public var implausible: Int?
    /// The scenario pins a known race (`expectFailure`): then it passes when a schedule failed.
    public var expectFailure: Bool?
    /// The verdict: a schedule ran, and none failed — or, for a scenario that expects a
    /// failure, one did. An exploration that ran none (a `timeLimit` that ran out first, a
    /// cancel) has not passed: it found nothing because it looked at nothing.
    public var passed: Bool { schedules > 0 && (expectFailure == true ? failed > 0 : failed == 0) }

    private enum CodingKeys: String, CodingKey {
        case schedules, failed, firstFailingSeed, failures, schedulesPerSecond, stepsPerSecond, decisionsPerSecond, steps
        case decisions, seconds
        case stoppedBy, jobs, expectedDecisions, covered, coverage, exhaustive, bound, pruned, expectFailure, passed, implausible
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(schedules, forKey: .schedules)
        try c.encode(failed, forKey: .failed)
        try c.encodeIfPresent(firstFailingSeed, forKey: .firstFailingSeed)
        try c.encode(failures, forKey: .failures)
        try c.encode(schedulesPerSecond, forKey: .schedulesPerSecond)
        try c.encode(stepsPerSecond, forKey: .stepsPerSecond)
        try c.encode(decisionsPerSecond, forKey: .decisionsPerSecond)
        try c.encode(steps, forKey: .steps)
        try c.encode(decisions, forKey: .decisions)
        try c.encode(seconds, forKey: .seconds)
        try c.encodeIfPresent(stoppedBy, forKey: .stoppedBy)
        try c.encode(jobs, forKey: .jobs)
        try c.encode(expectedDecisions, forKey: .expectedDecisions)
        try c.encodeIfPresent(covered, forKey: .covered)
        try c.encodeIfPresent(coverage, forKey: .coverage)
        try c.encodeIfPresent(exhaustive, forKey: .exhaustive)
        try c.encodeIfPresent(bound, forKey: .bound)
        try c.encodeIfPresent(pruned, forKey: .pruned)
        try c.encodeIfPresent(expectFailure, forKey: .expectFailure)
        try c.encodeIfPresent(implausible, forKey: .implausible)
        try c.encode(passed, forKey: .passed)
    }
}

extension ExplorationFailure: CustomStringConvertible {
    /// What broke and where, the interleaving as a story, and the token that replays it: what a
    /// test prints of a failure it expected (`exploreExpectingFailure`).
    public var description: String {
        let where_ = [step.map { "at \($0)" }, invariant.map { "invariant \($0)" }].compactMap { $0 }
        let which = scheduleIndex < 0 ? "the scenario's own schedule" : "schedule \(scheduleIndex) (\(strategy.rawValue), seed \(seed))"
        return """
            Failed on \(which), shrunk to \(preemptions) preemption(s)\(where_.isEmpty ? "" : " (\(where_.joined(separator: ", ")))"):
              \(message)
            How likely: \(likelihood)
            The interleaving:
            \(story.map { "  " + $0 }.joined(separator: "\n"))
            Replay: \(schedule)
            """
    }

    /// `needs a stall: needs wallet.shieldAction to pause ≥ 80 ms between two App Group calls
    /// (2 less plausible schedules of this failure seen)`: the class, the stalls past a quantum.
    public var likelihood: String {
        let long = stalls.filter { !$0.likely }.map(\.text)
        let seen = lessPlausibleSeen.flatMap { $0 > 0 ? " (\($0) less plausible schedule(s) of this failure seen)" : nil }
        return ([plausibility.rawValue] + long).joined(separator: "; ") + (seen ?? "")
    }
}
