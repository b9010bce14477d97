import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fixed set of threads of the daemon's own, each taking the next job from a queue: for work
/// that blocks (a journal's `fdatasync`) or runs a long while (a scenario's schedules), which must
/// never sit on Dispatch's pool. That pool runs only as many threads as there are cores while they
/// compute; an exploration that kept them busy once made a journal sync — and every durable
/// answer behind it — wait 11 s.
///
/// Jobs queued ``Placement/front`` run before those queued at the back. A queued job can be taken
/// back (``withdraw(_:)``) until a thread has started it.
///
/// A thread is started for a job when every running thread is busy, up to `count`. Threads of a
/// pool made with `endWhenIdle` end once the queue is empty, and are started again by the next
/// job: the restore pool works only while a daemon starts, and its threads (one per core) would
/// otherwise wait for the rest of the daemon's life.
// unchecked: lock-protected: the queue is reached only under `condition`
final class WorkerThreads: @unchecked Sendable {
    /// One piece of work, and whether a thread took it.
    // unchecked: `body` is immutable; `taken` is touched only under the owner's `condition`
    final class Job: @unchecked Sendable {
        fileprivate let body: @Sendable () -> Void
        /// Set under the owner's lock once a thread takes the job (or it is withdrawn).
        fileprivate var taken = false

        fileprivate init(_ body: @escaping @Sendable () -> Void) {
            self.body = body
        }
    }

    enum Placement {
        case front, back
    }

    let name: String
    let count: Int
    private let lowPriority: Bool
    private let endWhenIdle: Bool
    private let condition = NSCondition()
    private var queue: [Job] = []
    /// The name indexes of the threads running, and how many of them wait for a job.
    private var runningSlots: Set<Int> = []
    private var waiting = 0
    /// Callers of ``waitUntilNoThreadRuns(within:)`` waiting on `condition` beside the threads:
    /// while there are any, a new job wakes every waiter, so that it cannot wake only them.
    private var awaitingEnd = 0

    /// At most `count` threads named `name.<i>`, started as jobs come; with `lowPriority` they
    /// yield the cores to every other thread of the daemon (``SystemCall/lowerThreadPriority()``);
    /// with `endWhenIdle` each ends when it finds no job waiting.
    init(name: String, count: Int, lowPriority: Bool = false, endWhenIdle: Bool = false) {
        self.name = name
        self.count = max(1, count)
        self.lowPriority = lowPriority
        self.endWhenIdle = endWhenIdle
    }

    /// Waits until the pool has no thread running — for a pool made with `endWhenIdle`, until its
    /// queue is empty and its jobs have returned — or `seconds` have passed; true when none runs
    /// (how a test sees the threads end).
    func waitUntilNoThreadRuns(within seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        awaitingEnd += 1
        defer { awaitingEnd -= 1 }
        while !runningSlots.isEmpty {
            guard condition.wait(until: deadline) else { return runningSlots.isEmpty }
        }
        return true
    }

    /// Queues `body`; returns the job, which ``withdraw(_:)`` takes back while it waits.
    @discardableResult
    func submit(_ placement: Placement = .back, _ body: @escaping @Sendable () -> Void) -> Job {
        let job = Job(body)
        condition.lock()
        switch placement {
        case .front: queue.insert(job, at: 0)
        case .back: queue.append(job)
        }
        if queue.count > waiting && runningSlots.count < count { startThread() }
        if awaitingEnd > 0 { condition.broadcast() } else { condition.signal() }
        condition.unlock()
        return job
    }

    /// Takes `job` out of the queue; false when a thread has already started it.
    func withdraw(_ job: Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !job.taken else { return false }
        job.taken = true
        queue.removeAll { $0 === job }
        return true
    }

    /// Starts a thread under the lowest index free. Under `condition`.
    private func startThread() {
        let index = (0..<count).first { !runningSlots.contains($0) }!
        runningSlots.insert(index)
        let thread = Thread { [self] in
            SystemCall.nameCurrentThread(Self.threadName(name, index))
            // Signals go to the main thread and Dispatch, as for the event loops.
            var all = sigset_t()
            sigfillset(&all)
            pthread_sigmask(SIG_BLOCK, &all, nil)
            if lowPriority { SystemCall.lowerThreadPriority() }
            work(index)
        }
        thread.start()
    }

    /// `name.index`, shortened to the 15 bytes Linux keeps for a thread's name (longer, the name
    /// is refused and `top -H`, gdb and perf show "clarityd"): `clarityd.restore` thread 0 is
    /// `clarityd.rest.0`, `clarityd.scenario` thread 1 `clarityd.scen.1`.
    static func threadName(_ name: String, _ index: Int) -> String {
        let suffix = ".\(index)"
        return String(decoding: name.utf8.prefix(max(0, 15 - suffix.utf8.count)), as: UTF8.self) + suffix
    }

    private func work(_ index: Int) {
        condition.lock()
        while true {
            while queue.isEmpty {
                if endWhenIdle {
                    runningSlots.remove(index)
                    condition.broadcast()
                    condition.unlock()
                    return
                }
                waiting += 1
                condition.wait()
                waiting -= 1
            }
            let job = queue.removeFirst()
            job.taken = true
            condition.unlock()
            job.body()
            condition.lock()
        }
    }
}
