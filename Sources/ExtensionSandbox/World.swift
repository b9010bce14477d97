/// One simulated device's runtime: its scheduler, virtual clock and seeded randomness.
///
/// Everything inside a world runs on the thread that calls ``perform(_:)`` or
/// ``advance(to:)``, one job at a time, so a world needs no locks and the same inputs, seed and
/// build give the same trace, byte for byte. Worlds share nothing. Callers must not use a world
/// from two threads at once (the daemon gives each device a serial queue): a debug build checks
/// it (``Scheduler/withRunLoop(_:)``).
///
/// World-confined state (`@unchecked Sendable`): the clock, the random source and anything
/// else built on ``World`` is touched only from inside the world's run loop.
// unchecked: world-confined: one thread at a time, checked on entry by `Scheduler.withRunLoop`
public final class World: @unchecked Sendable {
    public let scheduler: Scheduler
    public let clock: VirtualClock
    /// The world's only randomness. Draw with `world.random.next()` or `using: &world.random`.
    public var random: SeededRandom
    public let seed: UInt64
    /// The most jobs one request (or one timer) may run before the world is stopped, as iOS's
    /// watchdog stops an app that never returns: ``WorldError/stepBudgetExceeded(steps:)``.
    public var stepBudget = 5_000_000
    /// Asked before each instant at which timers fire, and every few thousand jobs of a drive:
    /// true stops the world with ``WorldError/interrupted`` (a scenario whose caller went away;
    /// one step of it can be long). Nil for a device, whose requests always run to the end.
    public var interruption: (@Sendable () -> Bool)?
    /// The scheduler's escape counts already reported: what arrives after one drive (a foreign
    /// enqueue while the world is idle, too) is reported by the next.
    private var reported: (escaped: Int, foreign: Int) = (0, 0)
    /// Whether tasks may have been left behind: a drive stopped before the world went idle (the
    /// strategy stopped it, or the step budget ran out: tasks were cut mid-run), or a request
    /// ended before its task did (stalled, interrupted: it may wait on a timer that never
    /// fires). Then ``reclaim()`` has work to do.
    private var leftTasksBehind = false

    /// The world's main actor: `@MainActor` code running in this world runs here, on the
    /// world's thread (``MainActorOverride``).
    public let mainActor: WorldActorExecutor

    public init(seed: UInt64, start: VirtualInstant = .epoch, strategy: any SchedulingStrategy = FIFOStrategy()) {
        self.seed = seed
        self.random = SeededRandom(seed: seed)
        self.scheduler = Scheduler(strategy: strategy)
        self.clock = VirtualClock(now: start)
        self.mainActor = WorldActorExecutor(scheduler: scheduler, label: "MainActor")
        scheduler.mainActor = mainActor
    }

    /// Starts world tasks from inside the world (platform work that iOS runs in another process).
    public var tasks: WorldTasks { WorldTasks(scheduler: scheduler) }

    /// A fresh executor identity for one actor of this world; `notesAccesses` for an actor that
    /// notes each access to its state itself (``WorldActorExecutor/notesAccesses``).
    public func makeExecutor(label: String, notesAccesses: Bool = false) -> WorldActorExecutor {
        WorldActorExecutor(scheduler: scheduler, label: label, notesAccesses: notesAccesses)
    }

    /// Runs `body` as a world task and drives the world until it is idle; returns what `body`
    /// returned. Fails with ``WorldError`` when a job escaped the world or `body` never finished
    /// (it waited on something that only a later advance of the clock could give).
    public func perform<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        try perform(lettingTimePass: false, body)
    }

    /// As ``perform(_:)``; with `lettingTimePass`, whenever the world goes idle before `body`
    /// finished, the clock moves to the next timer's deadline and every timer due then fires:
    /// `body` may wait on virtual time (``sleep(seconds:)``), as a scenario's branches do. With
    /// `upTo`, no timer later than that much after now fires: a body that waits longer stalls.
    public func perform<T: Sendable>(
        lettingTimePass: Bool, upTo limit: VirtualDuration? = nil, _ body: @escaping @Sendable () async throws -> T
    ) throws -> T {
        let end = limit.map { clock.now + $0 }
        let outcome = Outcome<T>()
        try drive {
            Task(executorPreference: scheduler) {
                do {
                    outcome.result = .success(try await body())
                } catch {
                    outcome.result = .failure(error)
                }
            }
        }
        while lettingTimePass, outcome.result == nil, let deadline = clock.nextDeadline, end.map({ deadline <= $0 }) ?? true {
            try fireTimers(dueAt: deadline)
        }
        guard let result = outcome.result else {
            leftTasksBehind = true
            throw WorldError.stalled
        }
        return try result.get()
    }

    /// Suspends the calling world task until the clock has moved `seconds` on (it moves only
    /// when the world is driven with time passing, or advanced).
    public func sleep(seconds: Double) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            clock.schedule(at: clock.now + .seconds(seconds), label: "sleep") { continuation.resume() }
        }
    }

    /// Advances the clock to `target`, firing every timer due on the way. Timers due at the same
    /// instant fire together, each in a fresh world task, and the world is driven until idle
    /// after each instant: under an exploring strategy they interleave.
    public func advance(to target: VirtualInstant) throws {
        while let deadline = clock.nextDeadline, deadline <= target {
            try fireTimers(dueAt: deadline)
        }
        clock.move(to: target)
    }

    /// Lets go of the tasks a world stopped mid-run left behind, for a world about to be let go
    /// of: the tasks cut when it stopped run to their end (``Scheduler/reclaimStranded(budget:)``:
    /// every platform call throws ``WorldError/reclaimed``), and so do those waiting on its timers,
    /// which all fire (setting no new one). A task never resumed is never freed, nor what it holds
    /// — the actors, and through them this world: a `dfs` search, which stops a schedule as soon
    /// as it repeats one already run, leaked a device a schedule (issue 38). Nothing a reclaimed
    /// world does is looked at; a world whose every drive finished has nothing to reclaim. Tasks
    /// waiting on anything else than the clock (a continuation the app keeps) stay unresumed.
    public func reclaim() {
        guard leftTasksBehind else { return }
        leftTasksBehind = false
        let budget = stepBudget
        scheduler.withRunLoop {
            guard scheduler.reclaimStranded(budget: budget) else { return }
            clock.close()
            while let timer = clock.popDue(upTo: VirtualInstant(milliseconds: .max)) {
                Task(executorPreference: scheduler) { await timer.action() }
                guard scheduler.runUntilIdle(budget: budget) == .idle else { return }
            }
        }
    }

    /// The world stopped at a breakpoint (a replay's `until`, docs/scenarios.md): the tasks its
    /// stop cut are held where they stood, and it goes on as a device's world, FIFO. Looks at its
    /// state run beside them; ``resumeHeldTasks()`` lets them go on.
    public func holdStoppedTasks() {
        scheduler.holdStranded(goingOnUnder: FIFOStrategy())
        interruption = nil
        // Held, they are not left behind: a reclaim now would end them.
        leftTasksBehind = false
    }

    /// The tasks a breakpoint held go on, first in line, at the world's next drive; nothing
    /// when none is held.
    public func resumeHeldTasks() {
        scheduler.resumeHeld()
    }

    /// The tasks a breakpoint still holds are left behind, for ``reclaim()``: the world is let go of.
    public func releaseHeldTasks() {
        if scheduler.releaseHeld() { leftTasksBehind = true }
    }

    private func fireTimers(dueAt deadline: VirtualInstant) throws {
        if let interruption, interruption() {
            leftTasksBehind = true
            throw WorldError.interrupted
        }
        var due: [@Sendable () async -> Void] = []
        while let timer = clock.popDue(upTo: deadline) { due.append(timer.action) }
        try drive {
            for action in due {
                Task(executorPreference: scheduler) { await action() }
            }
        }
    }

    private func drive(_ start: () -> Void) throws {
        let missing = GlobalEnqueueHook.missingSymbols
        guard missing.isEmpty else { throw WorldError.escapeHooksMissing(missing) }
        let budget = stepBudget
        let interruption = interruption
        let end = scheduler.withRunLoop {
            start()
            return scheduler.runUntilIdle(budget: budget, interruption: interruption)
        }
        if end != .idle { leftTasksBehind = true }
        let before = reported
        let now = (escaped: scheduler.escapedJobs, foreign: scheduler.foreignEnqueues)
        reported = now
        switch end {
        case .idle: break
        case .stopped: throw WorldError.diverged(scheduler.stopped ?? "stopped")
        case .budgetSpent: throw WorldError.stepBudgetExceeded(steps: budget)
        case .interrupted: throw WorldError.interrupted
        }
        if now.escaped > before.escaped { throw WorldError.jobEscaped(count: now.escaped - before.escaped) }
        if now.foreign > before.foreign { throw WorldError.foreignEnqueue(count: now.foreign - before.foreign) }
    }

    // unchecked: world-confined: set by the world's task, read after the drive, on the run loop's thread
    private final class Outcome<T>: @unchecked Sendable {
        var result: Result<T, any Error>?
    }
}

/// Starts tasks in a world: each runs on the world's scheduler, beside the task that started it.
/// Only for code already running inside the world (a task started from outside is a foreign
/// enqueue).
public struct WorldTasks: Sendable {
    let scheduler: Scheduler

    public func spawn(_ body: @escaping @Sendable () async -> Void) {
        Task(executorPreference: scheduler) { await body() }
    }
}

/// Why a world refused to go on. Each is a bug in simulated code, never a user error.
public enum WorldError: Error, Equatable, CustomStringConvertible {
    /// Simulated code enqueued jobs with a delay or a deadline (a clock's sleep): time in a world
    /// comes only from its virtual clock. (`Task {}` and `Task.detached` are fine: they become
    /// tasks of the world.)
    case jobEscaped(count: Int)
    /// Jobs arrived from a thread outside the world's run loop (`Task.sleep`'s wake-up, a
    /// `DispatchQueue`, a `Thread`).
    case foreignEnqueue(count: Int)
    /// The request's task did not finish by the time the world went idle.
    case stalled
    /// The world ran ``World/stepBudget`` jobs without going idle (an endless loop of awaits)
    /// and was stopped; what was still ready to run was dropped.
    case stepBudgetExceeded(steps: Int)
    /// The Swift runtime lacks the hooks that catch escapes (symbols named): no world runs
    /// unchecked.
    case escapeHooksMissing([String])
    /// ``World/interruption`` asked the world to stop; timers due were left unfired, and the
    /// tasks running were cut.
    case interrupted
    /// The strategy stopped the world: a replay met another situation than it recorded.
    case diverged(String)
    /// Thrown at every platform call of a world being reclaimed (``World/reclaim()``): the
    /// task it cuts ends there.
    case reclaimed

    public var description: String {
        switch self {
        case .jobEscaped(let count):
            "\(count) job(s) escaped the world with a delay (a clock's sleep in simulated code?): wait on the virtual clock instead (platform.scheduleAppTimer(after:label:action:), or a DeviceActivity schedule)"
        case .foreignEnqueue(let count):
            "\(count) job(s) were enqueued from a thread outside the world's run loop (Task.sleep, DispatchQueue, Thread or a wall-clock Timer in simulated code?): start work with Task {} and wait on the virtual clock (platform.scheduleAppTimer(after:label:action:))"
        case .stalled:
            "the world went idle before the request finished (it awaited something only time could give)"
        case .stepBudgetExceeded(let steps):
            "the world ran \(steps) steps without finishing (an endless loop?) and was stopped"
        case .interrupted:
            "the world was stopped before it finished (its run was cancelled)"
        case .diverged(let reason):
            reason
        case .reclaimed:
            "the world was let go of: its unfinished tasks end at their next platform call"
        case .escapeHooksMissing(let symbols):
            "this Swift runtime lacks \(symbols.joined(separator: ", ")): jobs escaping a world could not be caught"
        }
    }
}
