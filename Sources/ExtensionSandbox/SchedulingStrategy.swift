/// Chooses which ready job runs next: the seam for exploring interleavings.
///
/// The scheduler asks only when two or more jobs are ready (a *decision*), showing them in
/// enqueue order with the task and actor each belongs to (``ReadyJobs``). A strategy must be
/// deterministic given its own state (its seed), so that a run replays from its seed; every
/// decision is recorded as the index picked, and that list (a *schedule*) replays the run under
/// ``ReplayStrategy`` whatever strategy first made it.
public protocol SchedulingStrategy: Sendable {
    /// A short name recorded with every failure (`fifo`, `random`, `pct`).
    var name: String { get }
    /// The index of the job to run among `ready` (at least two jobs, in enqueue order).
    mutating func pickNext(_ ready: ReadyJobs) -> Int
}

/// What a strategy sees of the ready queue: per job, the world task it belongs to and the actor
/// it runs on (nil for a task's own code outside any actor).
public struct ReadyJobs: Sendable {
    let jobs: [Scheduler.ReadyJob]

    public var count: Int { jobs.count }

    /// The world-local number of the task the job at `index` belongs to: tasks are numbered 1,
    /// 2, … in the order their first job was seen since the world last went idle (0 for a job that
    /// is not a task's).
    public func task(at index: Int) -> Int { jobs[index].task }

    /// The label of the actor the job at `index` runs on, nil for a task's own code.
    public func actor(at index: Int) -> String? { jobs[index].actorExecutor?.label }
}

/// Runs jobs in the order they were enqueued: the ordinary, reproducible run. Tasks ready at the
/// same time take turns at every await, round robin.
public struct FIFOStrategy: SchedulingStrategy {
    public init() {}
    public var name: String { "fifo" }
    public func pickNext(_ ready: ReadyJobs) -> Int { 0 }
}

/// Picks uniformly among ready jobs with a seeded generator (a random walk over interleavings).
public struct RandomStrategy: SchedulingStrategy {
    private var random: SeededRandom
    public let seed: UInt64

    public init(seed: UInt64) {
        self.seed = seed
        self.random = SeededRandom(seed: seed)
    }

    public var name: String { "random" }

    public mutating func pickNext(_ ready: ReadyJobs) -> Int {
        Int(random.next() % UInt64(ready.count))
    }
}

/// Replays a recorded schedule: the `n`-th decision picks `choices[n]`. Past the end of the list,
/// or where the recorded index no longer exists (the run left the recorded path), it picks the
/// first job, as FIFO would, and counts the divergence.
public struct ReplayStrategy: SchedulingStrategy {
    public let choices: [Int]
    private var position = 0
    /// Decisions where the recorded choice did not fit the ready queue.
    public private(set) var divergences = 0

    public init(choices: [Int]) {
        self.choices = choices
    }

    public var name: String { "replay" }

    public mutating func pickNext(_ ready: ReadyJobs) -> Int {
        defer { position += 1 }
        guard position < choices.count else { return 0 }
        let choice = choices[position]
        guard choice >= 0, choice < ready.count else {
            divergences += 1
            return 0
        }
        return choice
    }
}
