@_spi(Host) import SimulatediOS

/// A failing schedule as `scenario.explore` reports it: what broke, and everything needed to
/// replay it (docs/scenarios.md, "Failures").
public struct ExplorationFailure: Sendable, Encodable {
    public let message: String
    public let step: String?
    public let invariant: String?
    /// The schedule's index in the exploration (seed = seedStart + index).
    public let scheduleIndex: Int
    public let seed: UInt64
    public let strategy: ExplorationPlan.StrategyKind
    public let depth: Int?
    public let expectedDecisions: Int?
    /// The shortest list of choices found that still fails this way: replays it under any strategy.
    public let schedule: [Int]
    /// Choices that differ from FIFO's (0) in `schedule`, and in the schedule as first found.
    public let preemptions: Int
    public let originalPreemptions: Int
    public let originalLength: Int
    public let quirks: [String: Bool]
    public let build: BuildInfo

    init(
        reason: ScenarioFailureReason, index: Int, seed: ScheduleSeed, shrunk: [Int], original: [Int],
        quirks: [String: Bool], build: BuildInfo
    ) {
        message = reason.message
        step = reason.step
        invariant = reason.invariant
        scheduleIndex = index
        self.seed = seed.seed
        strategy = seed.strategy
        depth = seed.depth
        expectedDecisions = seed.expectedDecisions
        schedule = shrunk
        preemptions = shrunk.filter { $0 != 0 }.count
        originalPreemptions = original.filter { $0 != 0 }.count
        originalLength = original.count
        self.quirks = quirks.filter(\.value)
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
    public let steps: Int
    public let decisions: Int
    public let seconds: Double
    /// Why it stopped before running every schedule: `failure`, `timeLimit` or `cancelled`.
    public let stoppedBy: String?
    public let jobs: Int
    /// The decision count of the scenario's FIFO run (PCT's estimate).
    public let expectedDecisions: Int
}
