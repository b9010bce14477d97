import ExtensionSandbox
import Foundation

/// WorkManager (Android): unique one-time works by name. A work runs as soon as its constraint
/// holds (network: when the device is online; at `network.online` otherwise), in the app's
/// process, concurrently with everything else; a retry waits its backoff on the virtual clock.
/// Each run makes its worker anew from the app (``SimulatedApp/createWorker(workerClassName:)``,
/// Android's `WorkerFactory`), so the works are data the system keeps, as WorkManager's database
/// does: they outlive the app's process and are in the device's snapshot (``pendingWorks``,
/// ``restore(_:)``; docs/platform.md#android).
///
/// Each transition is traced `work` (`enqueued`, `kept`, `cancelled`, `started`, `succeeded`,
/// `retry`, `failed`, `waitingForNetwork`, `cancelledRunEnded`). A work throwing, or one whose
/// worker the app cannot make, is a failure (the error traced as `app.error`).
@_spi(Host) public actor WorkAgent: WorldActor {
    @_spi(Host) public nonisolated let executor: WorldActorExecutor
    private let clock: VirtualClock
    private let tasks: WorldTasks
    private let trace: DeviceTrace
    private let network: NetworkAgent
    /// How to run the app's code (in its process, launching it if needed).
    private var runInApp: (@Sendable (@escaping @Sendable () async -> Void) async -> Void)?
    /// The app's `WorkerFactory`.
    private var createWorker: (@Sendable (String) -> (any CoroutineWorker)?)?

    /// Where a unique work stands.
    private enum State {
        /// Enqueued; its constraint is being checked.
        case enqueued
        case waitingForNetwork
        case backingOff(until: VirtualInstant)
        case running(WorkRun)

        var run: WorkRun? {
            if case .running(let run) = self { return run }
            return nil
        }
    }

    private struct Unique {
        var request: OneTimeWorkRequest
        /// Which enqueueing this is: a timer or run of a replaced one finds another here.
        var generation: Int
        var attempts = 0
        var state = State.enqueued
    }

    private var works: [String: Unique] = [:]
    private var generations = 0

    @_spi(Host) public init(executor: WorldActorExecutor, clock: VirtualClock, tasks: WorldTasks, trace: DeviceTrace, network: NetworkAgent) {
        self.executor = executor
        self.clock = clock
        self.tasks = tasks
        self.trace = trace
        self.network = network
    }

    /// Connects the app: how its code runs, and its `WorkerFactory`.
    @_spi(Host) public func connect(
        runner: @escaping @Sendable (@escaping @Sendable () async -> Void) async -> Void,
        workerFactory: @escaping @Sendable (String) -> (any CoroutineWorker)?
    ) {
        runInApp = runner
        createWorker = workerFactory
    }

    /// The device is let go of: every work goes, untraced. The runner and the factory hold the
    /// app, which holds the platform that holds this agent: kept, they held the device's whole
    /// world (an Android client's sync, offline, issue 22).
    @_spi(Host) public func forgetAll() {
        for work in works.values { work.state.run?.cancel() }
        works = [:]
        runInApp = nil
        createWorker = nil
    }

    func enqueueUnique(_ name: String, policy: ExistingWorkPolicy, request: OneTimeWorkRequest) async {
        if let existing = works[name] {
            switch policy {
            case .keep:
                trace.record(.work(name: name, event: "kept", attempt: existing.attempts))
                return
            case .replace:
                existing.state.run?.cancel()
                trace.record(.work(name: name, event: "cancelled", attempt: existing.attempts))
            }
        }
        generations += 1
        works[name] = Unique(request: request, generation: generations)
        trace.record(.work(name: name, event: "enqueued", attempt: 0))
        await startIfAllowed(name, generation: generations)
    }

    /// `network.online`: every work waiting for the network starts.
    @_spi(Host) public func networkCameBack() async {
        for (name, work) in works.sorted(by: { $0.key < $1.key }) {
            guard case .waitingForNetwork = work.state else { continue }
            works[name]?.state = .enqueued
            await startIfAllowed(name, generation: work.generation)
        }
    }

    // MARK: - Snapshot

    /// The works kept, by name, for a snapshot. One enqueued or running is saved to run again.
    @_spi(Host) public var pendingWorks: [PendingWork] {
        works.sorted { $0.key < $1.key }.map { name, work in
            let wait: PendingWork.Wait
            switch work.state {
            case .waitingForNetwork: wait = .network
            case .backingOff(let until): wait = .backoff(untilMilliseconds: until.milliseconds)
            case .enqueued, .running: wait = .run
            }
            return PendingWork(name: name, request: work.request, attempts: work.attempts, wait: wait)
        }
    }

    /// Takes back the works of a snapshot, untraced: one waiting for the network waits again, a
    /// backoff ends when it did. One saved to run starts at ``startRestored()``, once the app is
    /// launched.
    @_spi(Host) public func restore(_ saved: [PendingWork]) {
        for work in saved {
            generations += 1
            var unique = Unique(request: work.request, generation: generations, attempts: work.attempts)
            switch work.wait {
            case .network: unique.state = .waitingForNetwork
            case .backoff(let until): backOff(&unique, name: work.name, until: VirtualInstant(milliseconds: until))
            case .run: unique.state = .enqueued
            }
            works[work.name] = unique
        }
    }

    /// Starts the restored works that were enqueued or running when saved, by name.
    @_spi(Host) public func startRestored() async {
        for (name, work) in works.sorted(by: { $0.key < $1.key }) {
            guard case .enqueued = work.state else { continue }
            await startIfAllowed(name, generation: work.generation)
        }
    }

    // MARK: - Runs

    private func startIfAllowed(_ name: String, generation: Int) async {
        guard let work = works[name], work.generation == generation, work.state.run == nil else { return }
        if work.request.requiresNetwork, !(await network.online) {
            works[name]?.state = .waitingForNetwork
            trace.record(.work(name: name, event: "waitingForNetwork", attempt: work.attempts))
            return
        }
        let run = WorkRun()
        works[name]?.state = .running(run)
        let attempt = work.attempts
        let workerClassName = work.request.workerClassName
        let runInApp = runInApp
        let createWorker = createWorker
        trace.record(.work(name: name, event: "started", attempt: attempt))
        let trace = trace
        tasks.spawn { [weak self] in
            let outcome = WorkOutcome()
            await runInApp? {
                outcome.result = await WorkRun.$current.withValue(run) {
                    do {
                        guard let worker = createWorker?(workerClassName) else { throw UnknownWorker(workerClassName: workerClassName) }
                        return try await worker.doWork(runAttemptCount: attempt)
                    } catch is CancellationError {
                        return .failure
                    } catch {
                        trace.recordError(error, in: "work \(name)")
                        return .failure
                    }
                }
            }
            await self?.finished(name, generation: generation, run: run, result: outcome.result)
        }
    }

    private func finished(_ name: String, generation: Int, run: WorkRun, result: WorkResult) async {
        guard let work = works[name], work.generation == generation, !run.isCancelled else {
            trace.record(.work(name: name, event: "cancelledRunEnded", attempt: 0))
            return
        }
        switch result {
        case .success, .failure:
            works[name] = nil
            trace.record(.work(name: name, event: result == .success ? "succeeded" : "failed", attempt: work.attempts))
        case .retry:
            var unique = work
            unique.attempts += 1
            trace.record(.work(name: name, event: "retry", attempt: unique.attempts))
            let delay = work.request.backoffSeconds(afterAttempts: unique.attempts)
            backOff(&unique, name: name, until: clock.now + .seconds(delay))
            works[name] = unique
        }
    }

    /// Waits `work`'s backoff: it starts again at `until`, if it is still the same enqueueing.
    private func backOff(_ work: inout Unique, name: String, until: VirtualInstant) {
        work.state = .backingOff(until: until)
        let generation = work.generation
        clock.schedule(at: until, label: "work \(name)") { [weak self] in
            await self?.startIfAllowed(name, generation: generation)
        }
    }
}

/// What a work's run answered, handed from the app's process back to the agent (world-confined).
// unchecked: world-confined: written by the work's task and read after it, on the world's run loop (checked there)
private final class WorkOutcome: @unchecked Sendable {
    var result = WorkResult.failure
}
