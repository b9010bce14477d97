/// Chooses which ready job runs next. The seam for exploring interleavings.
///
/// A strategy sees only how many jobs are ready, in enqueue order, and returns an index.
/// It must be deterministic given its own state (seed), so a run replays from its seed.
public protocol SchedulingStrategy: Sendable {
    /// A short name recorded with every failure (`fifo`, `random`).
    var name: String { get }
    /// The index of the job to run among `readyCount` (> 0) jobs in enqueue order.
    mutating func pickNext(readyCount: Int) -> Int
}

/// Runs jobs in the order they were enqueued: the ordinary, reproducible run.
public struct FIFOStrategy: SchedulingStrategy {
    public init() {}
    public var name: String { "fifo" }
    public func pickNext(readyCount: Int) -> Int { 0 }
}

/// Picks uniformly among ready jobs with a seeded generator (a random walk over interleavings).
public struct RandomStrategy: SchedulingStrategy {
    private var random: SeededRandom
    public let seed: UInt64

    public init(seed: UInt64) {
        self.seed = seed
        self.random = SeededRandom(seed: seed)
    }

    public var name: String { "random(\(seed))" }

    public mutating func pickNext(readyCount: Int) -> Int {
        Int(random.next() % UInt64(readyCount))
    }
}
