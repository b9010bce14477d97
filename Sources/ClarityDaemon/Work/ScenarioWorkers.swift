import ControlProtocol
import Foundation

/// Where `scenario.run`, `scenario.replay` and `scenario.explore` run: ``WorkerThreads`` of
/// their own (`scenarioThreads` in clarityd.json, default one per core), at a low priority, so
/// that however much is explored the event loops, the device lanes and the journals' syncs keep
/// their cores (docs/scenarios.md, "Sharing the daemon").
///
/// At most `threads + queueLimit` scenario requests are admitted at a time, running or waiting
/// for a thread; one more is refused at once (-32007), so a burst of requests holds a bounded
/// amount of memory. A request whose caller goes away while it waits is taken out of the queue
/// (answered -32008); one that runs sees its ``RequestCancellation`` and stops between
/// schedules or steps. An exploration's extra jobs borrow threads as they come free
/// (``spread(_:_:)``): all explorations together never run on more than `threads` threads.
final class ScenarioWorkers: Sendable {
    private let threads: WorkerThreads
    let queueLimit: Int
    /// The requests admitted: how to cancel each, its method, connection and request id (for
    /// `scenario.cancel`), and whether a thread has started it.
    private let admitted = Protected<[ObjectIdentifier: Admitted]>([:])
    /// Set, under ``admitted``'s lock, by ``cancelAll(_:)``: a request admitted after it (a
    /// connection still open while the daemon stops) is cancelled as it is admitted, or it would
    /// run on until the shutdown gave up waiting for it, its answer lost.
    private let stopping = Protected<RequestCancellation.Reason?>(nil)

    private struct Admitted {
        let cancellation: RequestCancellation
        let method: Method
        let connection: Int
        let requestID: RPCID?
        var started = false
    }

    /// Whether a request was admitted, and whether the daemon was stopping by then.
    private enum Admission {
        case refused
        case admitted(whileStopping: RequestCancellation.Reason?)
    }

    init(threads: Int, queueLimit: Int) {
        self.threads = WorkerThreads(name: "clarityd.scenario", count: threads, lowPriority: true)
        self.queueLimit = queueLimit
    }

    var threadCount: Int { threads.count }

    /// `daemon.status`'s `scenarios`: threads, requests running and waiting, and the
    /// explorations by connection and request id (what `scenario.cancel` takes).
    var status: JSONValue {
        let (running, queued, explorations) = admitted.withLock { admitted in
            (
                admitted.values.filter(\.started).count, admitted.values.filter { !$0.started }.count,
                admitted.values.filter { $0.method == .scenarioExplore }.sorted { $0.connection < $1.connection }
            )
        }
        return [
            "threads": .int(threads.count), "queueLimit": .int(queueLimit), "running": .int(running),
            "queued": .int(queued),
            "explorations": .array(
                explorations.map { ["connection": .int($0.connection), "id": (try? JSONWire.value($0.requestID)) ?? .null] }),
        ]
    }

    /// Runs `body` on a scenario thread and returns what it returned, once a thread is free;
    /// -32007 when `threads + queueLimit` requests are already admitted, -32008 when the request
    /// is cancelled before a thread took it.
    func perform<T: Sendable>(_ method: Method, for caller: Caller, _ body: @escaping @Sendable () throws -> T) throws -> T {
        let cancellation = caller.cancellation
        let key = ObjectIdentifier(cancellation)
        let limit = threads.count + queueLimit
        let stopping = stopping
        let admission = admitted.withLock { admitted -> Admission in
            guard admitted.count < limit else { return .refused }
            admitted[key] = Admitted(
                cancellation: cancellation, method: method, connection: caller.connection, requestID: caller.requestID)
            return .admitted(whileStopping: stopping.withLock { $0 })
        }
        switch admission {
        case .refused: throw RPCError.busy(limit: limit)
        case .admitted(let stoppingReason?): cancellation.cancel(stoppingReason)
        case .admitted(nil): break
        }
        let admitted = admitted
        defer { _ = admitted.withLock { $0.removeValue(forKey: key) } }
        let outcome = Protected<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let job = threads.submit {
            admitted.withLock { $0[key]?.started = true }
            let result = Result { try body() }
            outcome.withLock { $0 = result }
            done.signal()
        }
        let threads = threads
        // The handler holds the job, which holds the caller, which holds the cancellation: it is
        // forgotten once the job is done, or every scenario request stayed in memory for good
        // (an exploration a second in the soak grew the daemon 3 MB a minute).
        let registration = cancellation.onCancel { _ in
            guard threads.withdraw(job) else { return }
            _ = admitted.withLock { $0.removeValue(forKey: key) }
            done.signal()
        }
        defer { cancellation.forget(registration) }
        done.wait()
        guard let result = outcome.withLock({ $0 }) else {
            throw RPCError.cancelled(reason: cancellation.reason?.rawValue ?? "cancelled")
        }
        return try result.get()
    }

    /// Runs `body` on the calling scenario thread and on up to `count - 1` more as they come
    /// free (ahead of waiting requests); returns once every run of it that started has returned.
    /// A thread that comes free after the caller's own run has ended is not asked.
    func spread(_ count: Int, _ body: @escaping @Sendable () -> Void) {
        let group = DispatchGroup()
        var jobs: [WorkerThreads.Job] = []
        for _ in 1..<max(1, count) {
            group.enter()
            jobs.append(
                threads.submit(.front) {
                    body()
                    group.leave()
                })
        }
        body()
        for job in jobs where threads.withdraw(job) { group.leave() }
        group.wait()
    }

    /// What `scenario.cancel` did.
    enum CancelOutcome: Equatable {
        case cancelled
        /// No exploration runs or waits under that id (on that connection, when one was named).
        case noneFound
        /// Several connections each run one under that id: which one is not for the daemon to guess.
        case ambiguous(connections: [Int])
    }

    /// `scenario.cancel`: request ids are a connection's own, so an exploration is the pair
    /// (connection, id). Cancels the admitted `scenario.explore` of `id` on `connection` when it
    /// is named; else the one that runs or waits under `id`, when only one connection has one —
    /// a second process stopping a CI's exploration. (The exploring connection itself cannot
    /// ask: it reads nothing more until its exploration answers.)
    func cancel(explorationWithID id: RPCID, on connection: Int?) -> CancelOutcome {
        let matching = admitted.withLock { admitted in
            admitted.values.filter {
                $0.method == .scenarioExplore && $0.requestID == id && !$0.cancellation.isCancelled
                    && (connection == nil || $0.connection == connection)
            }
        }
        let connections = Set(matching.map(\.connection)).sorted()
        guard connections.count <= 1 else { return .ambiguous(connections: connections) }
        for request in matching { request.cancellation.cancel(.cancelled) }
        return matching.isEmpty ? .noneFound : .cancelled
    }

    /// Cancels every admitted request, and every one admitted from now on (the daemon is stopping).
    func cancelAll(_ reason: RequestCancellation.Reason) {
        let requests = admitted.withLock { admitted in
            stopping.withLock { $0 = reason }
            return Array(admitted.values)
        }
        for request in requests { request.cancellation.cancel(reason) }
    }

    /// Waits until no request is admitted, at most `timeout` seconds; false if some still are.
    func waitUntilIdle(timeout: Double) -> Bool {
        let deadline = DispatchTime.now() + timeout
        while admitted.withLock({ !$0.isEmpty }) {
            guard DispatchTime.now() < deadline else { return false }
            usleep(10_000)
        }
        return true
    }
}
