/// Probabilistic Concurrency Testing (Burckhardt, Kothari, Musuvathi, Nagarakatte, ASPLOS 2010),
/// as Coyote and Shuttle run it: every task gets a random priority when first seen and the
/// highest-priority ready task always runs; at `depth − 1` decisions drawn at random from the
/// first `expectedDecisions`, the running task's priority drops below every other. A bug that
/// needs `d` ordering constraints among `n` tasks in `k` decisions is found by one schedule with
/// probability at least 1/(n·k^(d−1)).
///
/// Deterministic from its seed, depth and `expectedDecisions` (the explorer takes it from a FIFO
/// run of the same scenario), so a failure replays from those three.
public struct PCTStrategy: SchedulingStrategy {
    public let seed: UInt64
    public let depth: Int
    public let expectedDecisions: Int
    private var random: SeededRandom
    private var priorities: [Int: UInt64] = [:]
    private var changePoints: [Int]
    private var decision = 0
    private var lowered: UInt64 = 0

    public init(seed: UInt64, depth: Int, expectedDecisions: Int) {
        self.seed = seed
        self.depth = max(1, depth)
        self.expectedDecisions = max(1, expectedDecisions)
        var random = SeededRandom(seed: seed)
        var points = Set<Int>()
        let wanted = min(self.depth - 1, self.expectedDecisions)
        while points.count < wanted {
            points.insert(1 + Int(random.next() % UInt64(self.expectedDecisions)))
        }
        self.changePoints = points.sorted()
        self.random = random
    }

    public var name: String { "pct" }

    public mutating func pickNext(_ ready: ReadyTasks) -> Int {
        decision += 1
        var best = highest(in: ready)
        if let first = changePoints.first, first == decision {
            changePoints.removeFirst()
            lowered += 1
            priorities[ready.task(at: best)] = lowered
            best = highest(in: ready)
        }
        return best
    }

    /// The highest-priority ready task; a task seen for the first time gets a random priority
    /// above every lowered one.
    private mutating func highest(in ready: ReadyTasks) -> Int {
        var best = 0
        var bestPriority: UInt64 = 0
        for index in 0..<ready.count {
            let task = ready.task(at: index)
            let priority: UInt64
            if let known = priorities[task] {
                priority = known
            } else {
                priority = (random.next() >> 8) + UInt64(depth) + 1
                priorities[task] = priority
            }
            if index == 0 || priority > bestPriority {
                best = index
                bestPriority = priority
            }
        }
        return best
    }
}
