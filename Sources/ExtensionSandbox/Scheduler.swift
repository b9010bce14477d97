import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The deterministic scheduler of one world: every job of every actor and task in the world
/// lands here, and ``runUntilIdle()`` runs them one at a time on the calling thread.
///
/// **Scheduling points are semantic** (docs/runtime.md): a task runs on, job after job, across
/// any number of actor hops, until it reaches a visible operation — a platform call it announces
/// with ``yield(before:process:)`` — or blocks, or ends. Only there is there a *decision*: the
/// ``SchedulingStrategy`` picks which ready task runs next (the task that yielded may go on).
/// How many jobs the compiler makes between two visible operations (the optimiser elides hops
/// in release builds) therefore changes nothing: the same scenario makes the same decisions in a
/// debug and a release build. Each decision is recorded, when asked, with what it chose between:
/// every ready task, its process and the operation it is about to perform (``Decision``).
///
/// Tasks started by the world prefer this executor (`Task(executorPreference:)`), and every
/// world actor has its own ``WorldActorExecutor`` feeding it (docs/runtime.md, pitfalls 1 and 2).
/// A job enqueued from another thread is a leak of nondeterminism and is counted in
/// ``foreignEnqueues``; the world fails the run when it sees one.
// unchecked: the ready queue is under `lock`; the rest is run-loop-confined, checked in `withRunLoop`
public final class Scheduler: TaskExecutor, @unchecked Sendable {
    struct ReadyJob: Sendable {
        let job: UnownedJob
        /// The world actor the job runs on; nil for a task's nonisolated code.
        let actorExecutor: WorldActorExecutor?
        /// The world-local task number (``ReadyTasks/task(at:)``).
        let task: Int
        /// The Swift runtime's id of the job's task (stable while the task lives).
        let taskId: UInt64
    }

    private let lock = NSLock()
    private var ready: [ReadyJob] = []
    /// The jobs that were ready when the world stopped (the strategy refused to go on, or the
    /// step budget ran out): their tasks were cut mid-run. A job dropped unrun is never freed,
    /// and neither is its task, nor the actors its frames hold, nor the world they hold (each of
    /// `dfs`'s pruned schedules leaked a whole device so: issue 38). They wait here, apart from
    /// the world's later work, until ``reclaimStranded(budget:)`` runs them to their end.
    private var stranded: [ReadyJob] = []
    /// The jobs a breakpoint stopped (``holdStranded(goingOnUnder:)``): kept apart from the
    /// world's later work, and from reclaiming, until the world is told to go on
    /// (``resumeHeld()``) or is let go of (``releaseHeld()``).
    private var held: [ReadyJob] = []
    /// Set while ``reclaimStranded(budget:)`` runs a stopped world's tasks to their end: every
    /// platform call throws (``WorldReclaimed``), so that they end at once and do nothing.
    public private(set) var isReclaiming = false
    /// The strategy that picks at each decision (read it back to see a replay's divergence).
    public private(set) var strategy: any SchedulingStrategy
    private var runLoopThread: pthread_t?
    /// Swift task ids seen since the world was last idle, and the number each was given.
    private var taskNumbers: [UInt64: Int] = [:]
    private var lastTaskNumber = 0
    /// The task whose job ran last, and whether it announced a visible operation since.
    private var runningTask: Int?
    private var yielded = false
    /// What each task announced it is about to do, until it runs again.
    private var announced: [Int: (operation: VisibleOperation, process: String?)] = [:]
    /// Jobs run since the scheduler was made.
    public private(set) var steps = 0
    /// Times two or more tasks were ready at a scheduling point and the strategy picked one.
    public private(set) var decisions = 0
    /// Decisions that switched away from a task that could have gone on (CHESS's preemptions).
    public private(set) var preemptions = 0
    /// When true, every decision is kept in ``decisionLog`` and its pick in ``choices`` (a
    /// scenario run turns it on; a long-lived device leaves it off so that nothing grows).
    public var recordsChoices = false
    /// The faults this run may meet at fault sites (``FaultPlan``); none unless a scenario's
    /// exploration or replay sets them. Touched only on the run loop's thread.
    public var faults = FaultPlan.none
    /// Reboots the device the world runs, for the fault ``Fault/reboot`` (set by the device;
    /// starts the reboot as a world task). Without it, no reboot fault fires.
    public var rebootForFault: (@Sendable () -> Void)?
    /// The task picked at each decision since recording began: the run's schedule.
    public private(set) var choices: [Int] = []
    /// Every decision since recording began, with what it chose between.
    public private(set) var decisionLog: [Decision] = []
    /// What the step after each decision touched, by decision (when the strategy
    /// ``SchedulingStrategy/usesFootprints``): the last one runs on to the end of the run.
    public private(set) var stepFootprints: [Footprint] = []
    private var recordsFootprints: Bool
    /// Set when the strategy refused to go on (a replay that met another situation than the one
    /// it recorded): the world stops, and says why.
    public private(set) var stopped: String?
    /// Jobs that arrived from a thread other than the run loop's while it ran, or while idle.
    public var foreignEnqueues: Int { lock.withLock { foreignCount } }
    /// Jobs that simulated code tried to send to the global executor (see ``GlobalEnqueueHook``).
    public var escapedJobs: Int { lock.withLock { escapedCount } }
    private var foreignCount = 0
    private var escapedCount = 0
    /// The Swift id of the task whose job runs now.
    private var runningTaskId: UInt64 = 0
    /// The extension callback that started each task simulated code started itself (`Task {}`,
    /// `Task.detached`; `async let` and task groups never reach the global executor). A task
    /// that inherits task-locals finds its context itself, and its entry goes at its first
    /// platform call (``forgetRunningTaskStarter()``); a detached one does not, and is looked up
    /// here (``startedBy``) for the world's life, so that it too is cut with its process at every
    /// platform call after its callback returned. Run-loop-confined: the hooks that fill it run
    /// on the run loop's thread only.
    private var starters: [UInt64: CallbackContext] = [:]

    public init(strategy: any SchedulingStrategy = FIFOStrategy()) {
        self.strategy = strategy
        self.recordsFootprints = strategy.usesFootprints
    }

    /// The running step touched `access` (shared state outside world actors, or inside an actor
    /// that ``WorldActorExecutor/notesAccesses``). Outside a world, or when no footprints are
    /// recorded, nothing happens. Called on the run loop's thread.
    public static func note(_ access: @autoclosure () -> Access) {
        guard let scheduler = current, scheduler.recordsFootprints, !scheduler.stepFootprints.isEmpty else { return }
        scheduler.stepFootprints[scheduler.stepFootprints.count - 1].insert(access())
    }

    /// The scheduler whose run loop owns the calling thread: nil outside every world.
    public static var current: Scheduler? { GlobalEnqueueHook.currentScheduler }

    /// The running task is about to perform `operation` (a platform call, a callback delivered
    /// or returning) for `process`: the next pick is a decision among every ready task. Outside a
    /// world, nothing happens. Called on the run loop's thread, from the task's own code, just
    /// before the actor hop that performs the operation.
    public static func yield(before operation: @autoclosure () -> VisibleOperation, process: String?) {
        guard let scheduler = current else { return }
        scheduler.yieldRunningTask(recording: scheduler.recordsChoices ? operation() : nil, process: process)
    }

    /// Marks the running task as at a scheduling point; `operation` is kept for the decision's
    /// record when the run records them.
    func yieldRunningTask(recording operation: VisibleOperation?, process: String?) {
        guard let runningTask else { return }
        yielded = true
        if let operation { announced[runningTask] = (operation, process) }
    }

    /// The world's main actor (``World/mainActor``): while this scheduler's loop runs on a
    /// thread, `@MainActor` code on that thread runs on it. Weak: the executor holds the scheduler.
    public internal(set) weak var mainActor: WorldActorExecutor?

    /// Where the world's trace stands (its last sequence number), recorded with each decision so
    /// that a story can place the switches among the effects. Set by the device that owns the world.
    public var position: (@Sendable () -> Int)?

    /// Where the log messages of code running in this world go (`level`, `category`, `message`):
    /// set by the device that owns the world, so that a logger made anywhere — a file's
    /// `private let log = Logger(…)` — writes into the trace of the world it runs in. Nil drops them.
    public var logSink: (@Sendable (_ level: String, _ category: String, _ message: String) -> Void)?

    public func enqueue(_ job: consuming ExecutorJob) {
        enqueue(UnownedJob(job), actorExecutor: nil)
    }

    func enqueue(_ job: UnownedJob, actorExecutor: WorldActorExecutor?) {
        let id = _getJobTaskId(job)
        lock.withLock {
            if !isRunLoopThread { foreignCount += 1 }
            ready.append(ReadyJob(job: job, actorExecutor: actorExecutor, task: taskNumber(id), taskId: id))
        }
    }

    /// A job simulated code sent to Swift's global executor from the world's thread
    /// (``GlobalEnqueueHook``): a task it started (`Task {}`, `Task.detached`), or one going on.
    /// It runs here, as a task of the world that the strategy interleaves like any other; a task
    /// met for the first time remembers the extension callback that started it (the running
    /// task's context, read on this thread inside its job).
    func enqueueStarted(_ job: UnownedJob) {
        let id = _getJobTaskId(job)
        let isNew = lock.withLock { () -> Bool in
            let isNew = taskNumbers[id] == nil
            ready.append(ReadyJob(job: job, actorExecutor: nil, task: taskNumber(id), taskId: id))
            return isNew
        }
        if isNew, id != runningTaskId, starters[id] == nil, let starter = CallbackContext.current, starter.sandbox != nil {
            starters[id] = starter
        }
    }

    /// The callback that started the running task, for a task that carries no context of its own
    /// (`Task.detached` in an extension); nil for every other task.
    var startedBy: CallbackContext? { starters.isEmpty ? nil : starters[runningTaskId] }

    /// The running task found its context itself (it inherited it): its entry goes.
    func forgetRunningTaskStarter() {
        if !starters.isEmpty { starters[runningTaskId] = nil }
    }

    /// A job enqueued with a delay or a deadline (the path of a clock's sleep): time in a world
    /// comes only from its virtual clock, so it runs here at once, and is counted: the run fails
    /// with ``WorldError/jobEscaped(count:)``.
    func enqueueEscaped(_ job: UnownedJob) {
        let id = _getJobTaskId(job)
        lock.withLock {
            escapedCount += 1
            ready.append(ReadyJob(job: job, actorExecutor: nil, task: taskNumber(id), taskId: id))
        }
    }

    /// The world-local number of a Swift task id: the process numbers tasks of every thread in
    /// one sequence, so its ids differ from run to run; the order a world first sees its tasks
    /// does not. Numbers keep growing; the map is emptied whenever the world goes idle.
    private func taskNumber(_ id: UInt64) -> Int {
        guard id != 0 else { return 0 }
        if let known = taskNumbers[id] { return known }
        lastTaskNumber += 1
        taskNumbers[id] = lastTaskNumber
        return lastTaskNumber
    }

    private var isRunLoopThread: Bool {
        guard let runLoopThread else { return false }
        return pthread_equal(runLoopThread, pthread_self()) != 0
    }

    /// Makes the calling thread the run loop's for the duration of `body`, so that jobs enqueued
    /// from it (including the first job of a task started inside `body`) count as the world's own.
    /// One thread at a time runs a world: a second thread entering while another is inside is a
    /// precondition failure in debug builds (``Confinement``); the same thread may enter again.
    public func withRunLoop<T>(_ body: () throws -> T) rethrows -> T {
        let previous = lock.withLock { () -> pthread_t? in
            let previous = runLoopThread
            Confinement.check(
                previous.map { pthread_equal($0, pthread_self()) != 0 } ?? true,
                "a second thread entered a world while another runs it")
            runLoopThread = pthread_self()
            return previous
        }
        let previousScheduler = GlobalEnqueueHook.setCurrentScheduler(self)
        MainActorOverride.set(mainActor)
        defer {
            MainActorOverride.set(previousScheduler?.mainActor)
            _ = GlobalEnqueueHook.setCurrentScheduler(previousScheduler)
            lock.withLock { runLoopThread = previous }
        }
        return try body()
    }

    /// How ``runUntilIdle(budget:interruption:)`` ended.
    public enum RunEnd: Sendable, Equatable {
        /// No job is left: every task has ended or waits on something outside the world's jobs.
        case idle
        /// The strategy refused to go on (``stopped`` says why).
        case stopped
        /// `budget` jobs ran and the world was still busy.
        case budgetSpent
        /// The interruption said stop.
        case interrupted
    }

    /// Runs ready jobs until none is left, or `budget` jobs have run, or the strategy stops the
    /// world (``stopped``), or `interruption` (asked every 1 024 jobs, so that a caller who went
    /// away stops even one long step) says stop. In the last three cases the jobs still ready
    /// are set aside: their tasks do not resume (a world stuck in an endless loop of awaits is
    /// stopped, and later work starts afresh; ``reclaimStranded(budget:)`` ends them when the
    /// world is let go of). Must be called inside ``withRunLoop(_:)``.
    @discardableResult
    public func runUntilIdle(budget: Int = .max, interruption: (@Sendable () -> Bool)? = nil) -> RunEnd {
        let taskExecutor = asUnownedTaskExecutor()
        var ran = 0
        while let next = takeNext() {
            let end: RunEnd? =
                if stopped != nil { .stopped }
                else if ran >= budget { .budgetSpent }
                else if ran & 1023 == 1023, let interruption, interruption() { .interrupted }
                else { nil }
            if let end {
                lock.withLock {
                    stranded.append(next)
                    stranded += ready
                    ready.removeAll()
                }
                return end
            }
            ran += 1
            steps += 1
            if recordsFootprints, !stepFootprints.isEmpty {
                stepFootprints[stepFootprints.count - 1].enter(next.task)
                if let actorExecutor = next.actorExecutor, !actorExecutor.notesAccesses {
                    stepFootprints[stepFootprints.count - 1].insert(actorExecutor.access)
                }
            }
            runningTaskId = next.taskId
            if let actorExecutor = next.actorExecutor {
                next.job.runSynchronously(
                    isolatedTo: actorExecutor.asUnownedSerialExecutor(), taskExecutor: taskExecutor)
            } else {
                next.job.runSynchronously(on: taskExecutor)
            }
            runningTaskId = 0
        }
        return stopped == nil ? .idle : .stopped
    }

    /// Whether tasks were cut when the world stopped and wait for ``reclaimStranded(budget:)``.
    public var hasStrandedTasks: Bool { lock.withLock { !stranded.isEmpty } }

    /// Runs the tasks cut when the world stopped to their end, so that they and what they hold
    /// are freed: first-in first-out, nothing recorded, no fault, and every platform call
    /// throwing ``WorldError/reclaimed`` (they end at their next one). For a world about to be
    /// let go of (``World/reclaim()``): what they do is never looked at. Returns false when
    /// `budget` jobs ran without the world going idle (then what is left never runs, and leaks).
    /// Must be called inside ``withRunLoop(_:)``.
    func reclaimStranded(budget: Int) -> Bool {
        lock.withLock {
            ready = stranded + ready
            stranded.removeAll()
        }
        isReclaiming = true
        stopped = nil
        strategy = FIFOStrategy()
        recordsChoices = false
        recordsFootprints = false
        faults = .none
        rebootForFault = nil
        return runUntilIdle(budget: budget) == .idle
    }

    /// The world stopped at a breakpoint (a replay's `until`): the jobs its stop cut are held
    /// for later, and from now on it runs as a device's world does — under `strategy`, no
    /// decision recorded, no fault. Until ``resumeHeld()`` the world serves other work (a look
    /// at its state) with the held tasks standing where they stopped.
    func holdStranded(goingOnUnder strategy: any SchedulingStrategy) {
        lock.withLock {
            held += stranded
            stranded.removeAll()
        }
        stopped = nil
        self.strategy = strategy
        recordsChoices = false
        recordsFootprints = false
        faults = .none
    }

    /// Whether tasks stopped at a breakpoint wait for ``resumeHeld()``.
    public var hasHeldTasks: Bool { lock.withLock { !held.isEmpty } }

    /// The held tasks go on: their jobs are ready again, ahead of any new one, each still
    /// counted as the task it was (so that a task that goes on is not taken for a new one).
    func resumeHeld() {
        lock.withLock {
            for job in held where job.taskId != 0 { taskNumbers[job.taskId] = job.task }
            ready = held + ready
            held.removeAll()
        }
    }

    /// The held tasks become stranded ones, for ``reclaimStranded(budget:)`` (a world let go of);
    /// returns whether there were any.
    func releaseHeld() -> Bool {
        lock.withLock {
            guard !held.isEmpty else { return false }
            stranded = held + stranded
            held.removeAll()
            return true
        }
    }

    /// The next job: the running task's, while it has one ready and announced nothing; else, at
    /// a scheduling point, the oldest job of the task the strategy picks among the ready ones.
    private func takeNext() -> ReadyJob? {
        lock.withLock {
            guard !ready.isEmpty else {
                taskNumbers.removeAll(keepingCapacity: true)
                runningTask = nil
                yielded = false
                return nil
            }
            if let runningTask, !yielded, let index = ready.firstIndex(where: { $0.task == runningTask }) {
                return ready.remove(at: index)
            }
            // One task ready (the rule between decisions): no decision, nothing to list.
            let only = ready[0].task
            if !ready.contains(where: { $0.task != only }) {
                runningTask = only
                yielded = false
                announced[only] = nil
                return ready.removeFirst()
            }
            var tasks: [Int] = []
            var actors: [String?] = []
            // A handful of ready jobs is the rule, and scanning them is cheapest; a crowd (a
            // scenario's thousand branches woken at one instant) is counted with a set, or each
            // decision costs the square of the crowd (issue 38).
            let crowded = ready.count > 16
            var seen = Set<Int>()
            for job in ready {
                guard crowded ? seen.insert(job.task).inserted : !tasks.contains(job.task) else { continue }
                tasks.append(job.task)
                if recordsChoices { actors.append(job.actorExecutor?.label) }
            }
            let canGoOn = yielded ? runningTask.flatMap { tasks.firstIndex(of: $0) } : nil
            var picked = 0
            if tasks.count > 1 {
                decisions += 1
                let view = ReadyTasks(
                    tasks: tasks, current: canGoOn, decision: decisions - 1, announced: announced,
                    actors: actors, previousStep: stepFootprints.last ?? Footprint())
                let choice = strategy.pickNext(view)
                if choice < 0 || choice >= tasks.count {
                    stopped = strategy.stopReason ?? "the strategy picked no ready task at decision \(decisions - 1)"
                    return ready.removeFirst()
                }
                picked = choice
                if recordsFootprints { stepFootprints.append(Footprint()) }
                if let canGoOn, picked != canGoOn { preemptions += 1 }
                if recordsChoices {
                    choices.append(tasks[picked])
                    decisionLog.append(view.decision(picking: picked, at: position?() ?? 0))
                }
            }
            let task = tasks[picked]
            runningTask = task
            yielded = false
            announced[task] = nil
            return ready.remove(at: ready.firstIndex { $0.task == task }!)
        }
    }
}

/// The Swift runtime's id of the task a job belongs to (the job's own id for a job that is not a
/// task). Public in the runtime's ABI since Swift 5.9; the standard library declares it the same way.
@_silgen_name("swift_task_getJobTaskId")
private func _getJobTaskId(_ job: UnownedJob) -> UInt64

/// The executor identity of one actor in a world: a `SerialExecutor` that forwards its jobs,
/// tagged with itself, to the world's ``Scheduler``. One per actor, never shared (with a shared
/// executor Swift never hops, and no interleaving is ever explored).
public final class WorldActorExecutor: SerialExecutor, Sendable {
    /// Package-only: an app holds its actors' executors, and must not reach the world through them.
    package let scheduler: Scheduler
    /// The actor's name, for traces and failure reports.
    public let label: String
    /// Whether the actor notes each access to its state itself (``Scheduler/note(_:)``), finer
    /// than "the whole actor": then a job on it adds nothing to a step's ``Footprint`` by itself.
    /// An actor that says so must note every read and write of its state, or `dfs` may skip
    /// orders that differ.
    public let notesAccesses: Bool
    /// A job on this actor, in a step's footprint: a write to all of its state.
    let access: Access

    public init(scheduler: Scheduler, label: String, notesAccesses: Bool = false) {
        self.scheduler = scheduler
        self.label = label
        self.notesAccesses = notesAccesses
        self.access = Access("actor \(label)", writes: true)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        scheduler.enqueue(UnownedJob(job), actorExecutor: self)
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}

/// An actor that lives in a world: it runs on its own ``WorldActorExecutor``.
public protocol WorldActor: Actor {
    nonisolated var executor: WorldActorExecutor { get }
}

extension WorldActor {
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }
}
