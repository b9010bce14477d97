import ExtensionSandbox
@_spi(Host) import SimulatediOS

/// How to explore a scenario (`scenario.explore`, docs/scenarios.md).
public struct ExplorationPlan: Sendable {
    /// The exploring strategies.
    public enum StrategyKind: String, Sendable, Codable, CaseIterable {
        case fifo, random, pct
        /// Every schedule within a preemption bound, depth first (``BoundedSearch``).
        case dfs
    }

    public var strategy: StrategyKind
    /// PCT's depth: the number of ordering constraints a bug may need (default 3).
    public var depth: Int
    public var schedules: Int
    /// Schedule `i` runs with seed `seedStart + i`.
    public var seedStart: UInt64
    public var stopAtFirst: Bool
    /// Seconds of wall time after which no new schedule starts (nil: no limit).
    public var timeLimit: Double?
    /// This run takes schedules `i` with `i % count == index` (a CI matrix of `count` jobs).
    public var shard: (index: Int, count: Int)
    /// Each schedule switches a seeded random subset of the platform quirks on.
    public var swarm: Bool
    /// Worlds run at once, one per thread (a world is single-threaded).
    public var jobs: Int
    /// The scenario's hash, which a failure's replay token names (empty when not known).
    public var scenarioHash = ""
    /// `dfs`'s bound: the most preemptions a schedule may have; nil (the default since issue 42;
    /// it meant 2 before): none — bounds 0, 1, … until no schedule needs more (``BoundedSearch``).
    public var preemptionBound: Int?
    /// `dfs` runs one order of steps that commute (sleep sets, ``BoundedSearch``); false runs
    /// every schedule within the bound, to check the reduction or where it may miss one.
    public var sleepSets = true
    /// Only schedules whose preemptions are all `likely` count (``SchedulePlausibility``): a
    /// failing schedule that needs a stall or a fault is counted in the report's `implausible`
    /// and exploring goes on (`explore --plausible`).
    public var plausibleOnly = false
    /// With `stopAtFirst`, when the first failing schedule is not `likely`: how many schedules
    /// after it are still run to find a more plausible one of the same failure (the search stops
    /// at the first `likely` one). Random and PCT only: `dfs` already runs the schedules with the
    /// fewest preemptions first.
    public var plausibilityWindow = 100

    public init(
        strategy: StrategyKind, depth: Int = 3, schedules: Int, seedStart: UInt64 = 0, stopAtFirst: Bool = true,
        timeLimit: Double? = nil, shard: (index: Int, count: Int) = (0, 1), swarm: Bool = false, jobs: Int = 1
    ) {
        self.strategy = strategy
        self.depth = depth
        self.schedules = schedules
        self.seedStart = seedStart
        self.stopAtFirst = stopAtFirst
        self.timeLimit = timeLimit
        self.shard = shard
        self.swarm = swarm
        self.jobs = jobs
    }
}

/// One schedule's strategy, rebuilt the same from its recorded fields (a failure's `seed`,
/// `strategy`, `depth` and `expectedDecisions` replay it).
public struct ScheduleSeed: Sendable, Encodable, Equatable {
    public let strategy: ExplorationPlan.StrategyKind
    public let seed: UInt64
    public let depth: Int?
    /// PCT's estimate of decisions per schedule: the scenario's FIFO run's count.
    public let expectedDecisions: Int?

    public init(strategy: ExplorationPlan.StrategyKind, seed: UInt64, depth: Int?, expectedDecisions: Int?) {
        self.strategy = strategy
        self.seed = seed
        self.depth = strategy == .pct ? max(1, depth ?? 3) : nil
        self.expectedDecisions = strategy == .pct ? max(1, expectedDecisions ?? 1) : nil
    }

    public func makeStrategy() -> any SchedulingStrategy {
        switch strategy {
        case .fifo, .dfs: FIFOStrategy()
        case .random: RandomStrategy(seed: seed)
        case .pct: PCTStrategy(seed: seed, depth: depth ?? 3, expectedDecisions: expectedDecisions ?? 1)
        }
    }

    /// The faults this schedule meets, of the `enabled` kinds: seeded by the schedule's own seed
    /// for random and PCT schedules (one seed for schedule and faults); the scenario's own
    /// schedule and `dfs`'s meet none (a bounded search enumerates interleavings only).
    public func faultPlan(enabled: Set<Fault>) -> FaultPlan {
        switch strategy {
        case .random, .pct: .seeded(seed, enabled: enabled)
        case .fifo, .dfs: .none
        }
    }

    /// Swarm mode's faults for this seed: each of the scenario's kinds on or off, by a
    /// generator of its own.
    public func swarmFaults(_ enabled: Set<Fault>) -> Set<Fault> {
        var random = SeededRandom(seed: seed ^ 0x5357_4146_4C54_0000)
        return Set(enabled.sorted().filter { _ in random.next() & 1 == 1 })
    }

    /// Swarm mode's quirks for this seed: each known quirk on or off, by a generator of its own.
    public var swarmQuirks: [String: Bool] {
        var random = SeededRandom(seed: seed ^ 0x5157_4152_4D00_0000)
        var quirks: [String: Bool] = [:]
        for quirk in DeviceConfig.knownQuirks.sorted() { quirks[quirk] = random.next() & 1 == 1 }
        return quirks
    }
}

/// What built this clarityd: a schedule replays in any build that makes the same decisions (the
/// same platform calls), so every failure names the build that found it — its configuration,
/// compiler, version and, when known, the source revision (a commit) — to say which build to
/// blame when a replay diverges.
public struct BuildInfo: Sendable, Encodable, Equatable {
    public let configuration: String
    public let compiler: String
    public let version: String
    /// The commit the sources were at (clarityd's `SourceRevision`); nil when unknown.
    public let revision: String?

    public init(version: String, revision: String?) {
        #if DEBUG
            configuration = "debug"
        #else
            configuration = "release"
        #endif
        #if compiler(>=6.4)
            compiler = "swift-6.4+"
        #elseif compiler(>=6.3)
            compiler = "swift-6.3"
        #else
            compiler = "swift-6.2-"
        #endif
        self.version = version
        self.revision = revision
    }
}
