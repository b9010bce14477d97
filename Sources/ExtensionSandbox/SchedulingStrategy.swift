/// Chooses which ready task runs next at a scheduling point: the seam for exploring
/// interleavings.
///
/// The scheduler asks only at a *decision*: a task announced a visible operation (a platform
/// call), blocked or ended, and two or more tasks are ready (``ReadyTasks``). A strategy must be
/// deterministic given its own state (its seed), so that a run replays from its seed; every
/// decision is recorded as the task picked, and that list (a *schedule*) — or only the picks
/// that differ from the non-preemptive one (``ScheduleDeviation``) — replays the run under
/// ``ReplayStrategy`` whatever strategy first made it.
public protocol SchedulingStrategy: Sendable {
    /// A short name recorded with every failure (`fifo`, `random`, `pct`).
    var name: String { get }
    /// The index of the task to run among `ready` (at least two tasks); an index outside them
    /// stops the world, for ``stopReason``.
    mutating func pickNext(_ ready: ReadyTasks) -> Int
    /// Why the strategy stopped the world, if it did.
    var stopReason: String? { get }
    /// Whether the scheduler records what each step touched (``Footprint``), for
    /// ``ReadyTasks/previousStep`` and ``Scheduler/stepFootprints``; off unless asked (it costs).
    var usesFootprints: Bool { get }
}

extension SchedulingStrategy {
    public var stopReason: String? { nil }
    public var usesFootprints: Bool { false }
}

/// What a task announced it is about to do: a platform call, a callback delivered or returning.
/// Built from its parts and read only when a decision is recorded or told.
public struct VisibleOperation: Sendable, Hashable, CustomStringConvertible {
    /// `read`, `write`, `remove`, `deliver`, `return`…
    public let verb: String
    /// What it acts on: an App Group suite, a ManagedSettings store, an activity, a callback.
    public let object: String
    /// Within it: a key, when there is one.
    public let item: String?

    public init(_ verb: String, _ object: String, _ item: String? = nil) {
        self.verb = verb
        self.object = object
        self.item = item
    }

    /// `read group.com.clarity.focus/prosocialChallengeVerified`.
    public var description: String { item.map { "\(verb) \(object)/\($0)" } ?? "\(verb) \(object)" }
}

/// What a strategy sees at a decision: the ready tasks, in the order their oldest ready job was
/// enqueued (the first has waited longest), the one that may go on (it announced an operation
/// and is ready to perform it), and what each announced.
public struct ReadyTasks: Sendable {
    let tasks: [Int]
    /// The index of the task that announced a visible operation and may go on; nil when the
    /// task that ran last blocked or ended (then no pick is a preemption).
    public let current: Int?
    /// This decision's place in the run, from 0.
    public let decision: Int
    let announced: [Int: (operation: VisibleOperation, process: String?)]
    /// The actor each task's next job runs on (recorded runs only), to name a task that
    /// announced nothing: one just started, or resumed.
    let actors: [String?]
    /// What the step since the previous decision touched (empty at the first decision, and
    /// unless the strategy ``SchedulingStrategy/usesFootprints``).
    public let previousStep: Footprint

    public var count: Int { tasks.count }

    /// The world-local number of the task at `index`: tasks are numbered 1, 2, … in the order
    /// their first job was seen since the world last went idle (0 for a job that is no task's).
    public func task(at index: Int) -> Int { tasks[index] }

    /// What the task at `index` is about to do, when it announced it (recorded runs only).
    public func operation(at index: Int) -> VisibleOperation? { announced[tasks[index]]?.operation }

    /// The process the task at `index` runs for (`clarity.monitor#3`) when it announced it, else
    /// the actor its next job runs on.
    public func process(at index: Int) -> String? {
        announced[tasks[index]]?.process ?? (index < actors.count ? actors[index] : nil)
    }

    /// The pick that preempts no one: the task that may go on, else the lowest-numbered task.
    public var nonPreemptive: Int {
        current ?? tasks.indices.min { tasks[$0] < tasks[$1] }!
    }

    /// The index of `task`, if it is ready.
    public func index(of task: Int) -> Int? { tasks.firstIndex(of: task) }

    func decision(picking index: Int, at position: Int) -> Decision {
        Decision(
            index: decision, position: position,
            candidates: tasks.indices.map { index in
                Decision.Candidate(task: tasks[index], process: process(at: index), operation: operation(at: index))
            },
            current: current.map { tasks[$0] }, chosen: tasks[index])
    }
}

/// One decision of a run, as recorded: what it chose between and what it picked.
public struct Decision: Sendable {
    public struct Candidate: Sendable {
        public let task: Int
        public let process: String?
        public let operation: VisibleOperation?

        public init(task: Int, process: String?, operation: VisibleOperation?) {
            self.task = task
            self.process = process
            self.operation = operation
        }
    }

    /// Its place in the run, from 0.
    public let index: Int
    /// Where the world's trace stood (``Scheduler/position``): the switch comes after that event.
    public let position: Int
    public let candidates: [Candidate]
    /// The task that could have gone on, if one could.
    public let current: Int?
    public let chosen: Int

    /// A switch away from a task that could have gone on.
    public var isPreemption: Bool { current.map { $0 != chosen } ?? false }

    /// Whether the pick differs from the non-preemptive one (``ReadyTasks/nonPreemptive``).
    public var deviates: Bool { chosen != (current ?? candidates.map(\.task).min()!) }
}

/// A pick that differs from the non-preemptive one: at decision `decision`, task `task` runs.
/// A run's deviations are all a replay needs (``ReplayStrategy``).
public struct ScheduleDeviation: Sendable, Hashable, Codable {
    public let decision: Int
    public let task: Int

    public init(decision: Int, task: Int) {
        self.decision = decision
        self.task = task
    }
}

/// Tasks take turns at every scheduling point: the one that has waited longest runs. Every
/// device's schedule, and `scenario.run`'s by default.
public struct FIFOStrategy: SchedulingStrategy {
    public init() {}
    public var name: String { "fifo" }
    public func pickNext(_ ready: ReadyTasks) -> Int { 0 }
}

/// Never preempts: the task that announced an operation goes on; when it blocks or ends, the
/// lowest-numbered ready task runs. The schedule every replay starts from, and that a shrunk
/// failure departs from as little as it can.
public struct NonPreemptiveStrategy: SchedulingStrategy {
    public init() {}
    public var name: String { "nonpreemptive" }
    public func pickNext(_ ready: ReadyTasks) -> Int { ready.nonPreemptive }
}

/// Picks uniformly among ready tasks with a seeded generator (a random walk over interleavings).
public struct RandomStrategy: SchedulingStrategy {
    private var random: SeededRandom
    public let seed: UInt64

    public init(seed: UInt64) {
        self.seed = seed
        self.random = SeededRandom(seed: seed)
    }

    public var name: String { "random" }

    public mutating func pickNext(_ ready: ReadyTasks) -> Int {
        Int(random.next() % UInt64(ready.count))
    }
}

/// Replays a recorded schedule: the non-preemptive pick everywhere but at the recorded
/// deviations. A deviation whose task is not ready at its decision stops the world with a
/// divergence report, and so does a run that ends before its last deviation
/// (``unconsumed``): a replay never silently runs something else.
public struct ReplayStrategy: SchedulingStrategy {
    public let deviations: [Int: Int]
    private(set) var used = 0
    public private(set) var stopReason: String?

    public init(deviations: [ScheduleDeviation]) {
        var byDecision: [Int: Int] = [:]
        for deviation in deviations { byDecision[deviation.decision] = deviation.task }
        self.deviations = byDecision
    }

    /// A full schedule (the task picked at every decision) as its deviations need not be known
    /// in advance: each pick is checked as the run reaches it.
    public init(tasks: [Int]) {
        var byDecision: [Int: Int] = [:]
        for (decision, task) in tasks.enumerated() { byDecision[decision] = task }
        self.deviations = byDecision
    }

    public var name: String { "replay" }

    /// Deviations the run never reached (it ended first).
    public var unconsumed: Int { deviations.count - used }

    public mutating func pickNext(_ ready: ReadyTasks) -> Int {
        guard let task = deviations[ready.decision] else { return ready.nonPreemptive }
        used += 1
        guard let index = ready.index(of: task) else {
            let found = (0..<ready.count).map { index in
                let what = [ready.process(at: index), ready.operation(at: index)?.description].compactMap { $0 }
                return "task \(ready.task(at: index))" + (what.isEmpty ? "" : " (\(what.joined(separator: ": ")))")
            }
            stopReason =
                "the replay diverged at decision \(ready.decision): the schedule runs task \(task) there, but the ready tasks are \(found.joined(separator: ", "))"
            return -1
        }
        return index
    }
}
