import ExtensionSandbox
import Foundation

/// What `enqueueUniqueWork` does when work of that name is already enqueued or running.
public enum ExistingWorkPolicy: String, Sendable, Codable {
    /// Cancel it (a run in flight is cancelled at its next platform call) and enqueue the new one.
    case replace
    /// Keep it; drop the new one.
    case keep
}

/// A worker's answer (`ListenableWorker.Result`).
public enum WorkResult: String, Sendable, Codable {
    case success
    /// Run again after the backoff delay (exponential: initial × 2^(attempts − 1)).
    case retry
    case failure
}

/// `OneTimeWorkRequestBuilder<Worker>()` with its constraints and backoff: `doWork` is the
/// worker's body, given its `runAttemptCount` (0 at the first run).
public struct OneTimeWorkRequest: Sendable {
    public let requiresNetwork: Bool
    public let initialBackoffSeconds: Double
    public let doWork: @Sendable (_ runAttemptCount: Int) async throws -> WorkResult

    public init(
        requiresNetwork: Bool, initialBackoffSeconds: Double = 30,
        doWork: @escaping @Sendable (_ runAttemptCount: Int) async throws -> WorkResult
    ) {
        self.requiresNetwork = requiresNetwork
        self.initialBackoffSeconds = initialBackoffSeconds
        self.doWork = doWork
    }
}

/// WorkManager (Android): unique one-time works by name. A work runs as soon as its constraint
/// holds (network: when the device is online; at `network.online` otherwise), in the app's
/// process, concurrently with everything else; a retry waits its backoff on the virtual clock.
/// Each transition is traced `work` (`enqueued`, `kept`, `cancelled`, `started`, `succeeded`,
/// `retry`, `failed`, `waitingForNetwork`, `cancelledRunEnded`). A work throwing is a failure
/// (the exception traced as `app.error`). Works live in the system's memory here: a device
/// restored from a snapshot has none pending (docs/platform.md#android).
@_spi(Host) public actor WorkAgent: WorldActor {
    @_spi(Host) public nonisolated let executor: WorldActorExecutor
    private let clock: VirtualClock
    private let tasks: WorldTasks
    private let trace: DeviceTrace
    private let network: NetworkAgent
    /// How to run the app's code (in its process, launching it if needed).
    private var runInApp: (@Sendable (@escaping @Sendable () async -> Void) async -> Void)?

    private struct Unique {
        var request: OneTimeWorkRequest
        var generation: Int
        var attempts = 0
        var running: WorkRun?
        var waitingForNetwork = false
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

    @_spi(Host) public func setAppRunner(_ runner: @escaping @Sendable (@escaping @Sendable () async -> Void) async -> Void) {
        runInApp = runner
    }

    /// The device is let go of: every work goes, untraced. A work waiting for the network holds
    /// its `doWork`, which holds the app, which holds the platform that holds this agent: kept,
    /// it held the device's whole world (The Phone's Android sync, offline, issue 22).
    @_spi(Host) public func forgetAll() {
        for work in works.values { work.running?.cancel() }
        works = [:]
        runInApp = nil
    }

    func enqueueUnique(_ name: String, policy: ExistingWorkPolicy, request: OneTimeWorkRequest) async {
        if let existing = works[name] {
            switch policy {
            case .keep:
                trace.record(.work(name: name, event: "kept", attempt: existing.attempts))
                return
            case .replace:
                existing.running?.cancel()
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
        for (name, work) in works.sorted(by: { $0.key < $1.key }) where work.waitingForNetwork {
            works[name]?.waitingForNetwork = false
            await startIfAllowed(name, generation: work.generation)
        }
    }

    private func startIfAllowed(_ name: String, generation: Int) async {
        guard let work = works[name], work.generation == generation, work.running == nil else { return }
        if work.request.requiresNetwork, !(await network.online) {
            works[name]?.waitingForNetwork = true
            trace.record(.work(name: name, event: "waitingForNetwork", attempt: work.attempts))
            return
        }
        let run = WorkRun()
        works[name]?.running = run
        let attempt = work.attempts
        let body = work.request.doWork
        let runInApp = runInApp
        trace.record(.work(name: name, event: "started", attempt: attempt))
        let trace = trace
        tasks.spawn { [weak self] in
            let outcome = WorkOutcome()
            await runInApp? {
                outcome.result = await WorkRun.$current.withValue(run) {
                    do {
                        return try await body(attempt)
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
            works[name]?.running = nil
            works[name]?.attempts += 1
            let attempts = work.attempts + 1
            let delay = work.request.initialBackoffSeconds * pow(2, Double(attempts - 1))
            trace.record(.work(name: name, event: "retry", attempt: attempts))
            clock.schedule(at: clock.now + .seconds(delay), label: "work \(name)") { [weak self] in
                await self?.startIfAllowed(name, generation: generation)
            }
        }
    }
}

/// What a work's run answered, handed from the app's process back to the agent (world-confined).
private final class WorkOutcome: @unchecked Sendable {
    var result = WorkResult.failure
}

/// `WorkManager.getInstance(context)`.
public struct WorkManager: Sendable {
    @_spi(Host) public let agent: WorkAgent
    @_spi(Host) public let kind: DevicePlatform

    /// `enqueueUniqueWork(name, policy, request)`.
    public func enqueueUniqueWork(_ name: String, _ policy: ExistingWorkPolicy, _ request: OneTimeWorkRequest) async throws {
        try kind.require(.android, "WorkManager works")
        try WorkRun.checkCancellation()
        try CallbackContext.platformCall(VisibleOperation("enqueue", "WorkManager", name))
        await agent.enqueueUnique(name, policy: policy, request: request)
    }
}
