import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The deterministic scheduler of one world: every job of every actor and task in the world
/// lands here, and ``runUntilIdle()`` runs them one at a time on the calling thread, in the
/// order its ``SchedulingStrategy`` picks.
///
/// Tasks started by the world prefer this executor (`Task(executorPreference:)`), and every
/// world actor has its own ``WorldActorExecutor`` feeding it, so the runtime hops between
/// actors and interleavings exist to be explored (docs/runtime.md, pitfalls 1 and 2).
/// A job enqueued from another thread is a leak of nondeterminism and is counted in
/// ``foreignEnqueues``; the world fails the run when it sees one.
public final class Scheduler: TaskExecutor, @unchecked Sendable {
    private struct ReadyJob {
        let job: UnownedJob
        let actorExecutor: WorldActorExecutor?
    }

    private let lock = NSLock()
    private var ready: [ReadyJob] = []
    private var strategy: any SchedulingStrategy
    private var runLoopThread: pthread_t?
    /// Jobs run since the scheduler was made.
    public private(set) var steps = 0
    /// Jobs that arrived from a thread other than the run loop's while it ran, or while idle.
    public private(set) var foreignEnqueues = 0
    /// Jobs that simulated code tried to send to the global executor (see ``GlobalEnqueueHook``).
    public private(set) var escapedJobs = 0

    public init(strategy: any SchedulingStrategy = FIFOStrategy()) {
        self.strategy = strategy
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        enqueue(UnownedJob(job), actorExecutor: nil)
    }

    func enqueue(_ job: UnownedJob, actorExecutor: WorldActorExecutor?) {
        lock.withLock {
            if !isRunLoopThread { foreignEnqueues += 1 }
            ready.append(ReadyJob(job: job, actorExecutor: actorExecutor))
        }
    }

    /// A job that tried to escape to the global executor: run it here, and count it.
    func enqueueEscaped(_ job: UnownedJob) {
        lock.withLock {
            escapedJobs += 1
            ready.append(ReadyJob(job: job, actorExecutor: nil))
        }
    }

    private var isRunLoopThread: Bool {
        guard let runLoopThread else { return false }
        return pthread_equal(runLoopThread, pthread_self()) != 0
    }

    /// Makes the calling thread the run loop's for the duration of `body`, so that jobs enqueued
    /// from it (including the first job of a task started inside `body`) count as the world's own.
    public func withRunLoop<T>(_ body: () throws -> T) rethrows -> T {
        let previous = lock.withLock { () -> pthread_t? in
            let previous = runLoopThread
            runLoopThread = pthread_self()
            return previous
        }
        let previousScheduler = GlobalEnqueueHook.setCurrentScheduler(self)
        defer {
            _ = GlobalEnqueueHook.setCurrentScheduler(previousScheduler)
            lock.withLock { runLoopThread = previous }
        }
        return try body()
    }

    /// Runs ready jobs until none is left, or `budget` jobs have run; returns false when the
    /// budget ran out, after dropping the jobs still ready (their tasks never resume: a world
    /// stuck in an endless loop of awaits is stopped, and later work starts afresh). Must be
    /// called inside ``withRunLoop(_:)``.
    @discardableResult
    public func runUntilIdle(budget: Int = .max) -> Bool {
        let taskExecutor = asUnownedTaskExecutor()
        var ran = 0
        while let next = takeNext() {
            guard ran < budget else {
                lock.withLock { ready.removeAll() }
                return false
            }
            ran += 1
            steps += 1
            if let actorExecutor = next.actorExecutor {
                next.job.runSynchronously(
                    isolatedTo: actorExecutor.asUnownedSerialExecutor(), taskExecutor: taskExecutor)
            } else {
                next.job.runSynchronously(on: taskExecutor)
            }
        }
        return true
    }

    private func takeNext() -> ReadyJob? {
        lock.withLock {
            guard !ready.isEmpty else { return nil }
            let index = ready.count == 1 ? 0 : strategy.pickNext(readyCount: ready.count)
            return ready.remove(at: index)
        }
    }
}

/// The executor identity of one actor in a world: a `SerialExecutor` that forwards its jobs,
/// tagged with itself, to the world's ``Scheduler``. One per actor, never shared (with a shared
/// executor Swift never hops, and no interleaving is ever explored).
public final class WorldActorExecutor: SerialExecutor, @unchecked Sendable {
    public let scheduler: Scheduler
    /// The actor's name, for traces and failure reports.
    public let label: String

    public init(scheduler: Scheduler, label: String) {
        self.scheduler = scheduler
        self.label = label
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
