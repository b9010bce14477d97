/// One simulated device's runtime: its scheduler, virtual clock and seeded randomness.
///
/// Everything inside a world runs on the thread that calls ``perform(_:)`` or
/// ``advance(to:)``, one job at a time, so a world needs no locks and the same inputs, seed and
/// build give the same trace, byte for byte. Worlds share nothing. Callers must not use a world
/// from two threads at once (the daemon gives each device a serial queue).
///
/// World-confined state (`@unchecked Sendable`): the clock, the random source and anything
/// else built on ``World`` is touched only from inside the world's run loop.
public final class World: @unchecked Sendable {
    public let scheduler: Scheduler
    public let clock: VirtualClock
    /// The world's only randomness. Draw with `world.random.next()` or `using: &world.random`.
    public var random: SeededRandom
    public let seed: UInt64
    /// The most jobs one request (or one timer) may run before the world is stopped, as iOS's
    /// watchdog stops an app that never returns: ``WorldError/stepBudgetExceeded(steps:)``.
    public var stepBudget = 5_000_000

    public init(seed: UInt64, start: VirtualInstant = .epoch, strategy: any SchedulingStrategy = FIFOStrategy()) {
        self.seed = seed
        self.random = SeededRandom(seed: seed)
        self.scheduler = Scheduler(strategy: strategy)
        self.clock = VirtualClock(now: start)
    }

    /// A fresh executor identity for one actor of this world.
    public func makeExecutor(label: String) -> WorldActorExecutor {
        WorldActorExecutor(scheduler: scheduler, label: label)
    }

    /// Runs `body` as a world task and drives the world until it is idle; returns what `body`
    /// returned. Fails with ``WorldError`` when a job escaped the world or `body` never finished
    /// (it waited on something that only a later advance of the clock could give).
    public func perform<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
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
        guard let result = outcome.result else { throw WorldError.stalled }
        return try result.get()
    }

    /// Advances the clock to `target`, firing every timer due on the way, each in a fresh world
    /// task, the world driven until idle after each one.
    public func advance(to target: VirtualInstant) throws {
        while let timer = clock.popDue(upTo: target) {
            try drive {
                Task(executorPreference: scheduler) { await timer.action() }
            }
        }
        clock.move(to: target)
    }

    private func drive(_ start: () -> Void) throws {
        let before = (scheduler.escapedJobs, scheduler.foreignEnqueues)
        let budget = stepBudget
        let finished = scheduler.withRunLoop {
            start()
            return scheduler.runUntilIdle(budget: budget)
        }
        if !finished { throw WorldError.stepBudgetExceeded(steps: budget) }
        if scheduler.escapedJobs > before.0 {
            throw WorldError.jobEscaped(count: scheduler.escapedJobs - before.0)
        }
        if scheduler.foreignEnqueues > before.1 {
            throw WorldError.foreignEnqueue(count: scheduler.foreignEnqueues - before.1)
        }
    }

    private final class Outcome<T>: @unchecked Sendable {
        var result: Result<T, any Error>?
    }
}

/// Why a world refused to go on. Each is a bug in simulated code, never a user error.
public enum WorldError: Error, Equatable, CustomStringConvertible {
    /// Simulated code sent jobs to Swift's global executor (a bare `Task {}` or `Task.detached`).
    case jobEscaped(count: Int)
    /// Jobs arrived from a thread outside the world's run loop.
    case foreignEnqueue(count: Int)
    /// The request's task did not finish by the time the world went idle.
    case stalled
    /// The world ran ``World/stepBudget`` jobs without going idle (an endless loop of awaits)
    /// and was stopped; what was still ready to run was dropped.
    case stepBudgetExceeded(steps: Int)

    public var description: String {
        switch self {
        case .jobEscaped(let count):
            "\(count) job(s) escaped the world to the global executor (a bare Task {} in simulated code?)"
        case .foreignEnqueue(let count):
            "\(count) job(s) were enqueued from a thread outside the world's run loop"
        case .stalled:
            "the world went idle before the request finished (it awaited something only time could give)"
        case .stepBudgetExceeded(let steps):
            "the world ran \(steps) steps without finishing (an endless loop?) and was stopped"
        }
    }
}
