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

/// A worker (`class … : CoroutineWorker`): the body of a work, made for each run by the app's
/// ``SimulatedApp/createWorker(workerClassName:)`` (Android's `WorkerFactory`) from the class
/// name its request saved, so a work outlives the app's process and the device's memory as
/// WorkManager's database keeps it on a phone.
public protocol CoroutineWorker: Sendable {
    /// `suspend fun doWork(): Result`, given `runAttemptCount` (0 at the first run).
    func doWork(runAttemptCount: Int) async throws -> WorkResult
}

/// `OneTimeWorkRequestBuilder<Worker>()` with its constraint and backoff: data only (the
/// worker's class by name), as WorkManager stores a request.
public struct OneTimeWorkRequest: Sendable, Codable, Equatable {
    /// WorkManager's bounds on a backoff (`WorkRequest.MIN_BACKOFF_MILLIS`,
    /// `MAX_BACKOFF_MILLIS`): an initial delay outside them is clamped, as
    /// `setBackoffCriteria` does, and so is every delay it doubles to.
    public static let backoffSeconds: ClosedRange<Double> = 10...18_000
    /// Android's default backoff (`DEFAULT_BACKOFF_DELAY_MILLIS`): 30 s, exponential.
    public static let defaultBackoffSeconds = 30.0

    /// The worker's class (`String(describing:)` of its type), which the app's
    /// ``SimulatedApp/createWorker(workerClassName:)`` is asked for at each run.
    public let workerClassName: String
    /// `setConstraints(Constraints(requiredNetworkType = NetworkType.CONNECTED))`.
    public let requiresNetwork: Bool
    /// `setBackoffCriteria(BackoffPolicy.EXPONENTIAL, …)`, in seconds, within ``backoffSeconds``.
    public let initialBackoffSeconds: Double

    /// `OneTimeWorkRequestBuilder<W>()`: a request for a worker of type `worker`.
    public init<W: CoroutineWorker>(
        _ worker: W.Type, requiresNetwork: Bool, initialBackoffSeconds: Double = Self.defaultBackoffSeconds
    ) {
        workerClassName = String(describing: worker)
        self.requiresNetwork = requiresNetwork
        self.initialBackoffSeconds = Self.clamped(initialBackoffSeconds)
    }

    /// How long a run that answered `retry` waits, after `attempts` runs: initial × 2^(attempts − 1),
    /// at most 5 hours (`WorkSpec.calculateNextRunTime`).
    public func backoffSeconds(afterAttempts attempts: Int) -> Double {
        Self.clamped(initialBackoffSeconds * pow(2, Double(max(attempts, 1) - 1)))
    }

    private static func clamped(_ seconds: Double) -> Double {
        seconds.isNaN ? backoffSeconds.lowerBound : min(max(seconds, backoffSeconds.lowerBound), backoffSeconds.upperBound)
    }
}

/// A unique work WorkManager keeps, as a device snapshot saves it: its request, the runs it has
/// had and what it waits for.
public struct PendingWork: Sendable, Codable, Equatable {
    /// What a kept work waits for.
    public enum Wait: Sendable, Codable, Equatable {
        /// The network (its constraint): it starts at `network.online`.
        case network
        /// Its retry's backoff, which ends at this instant (milliseconds of virtual time).
        case backoff(untilMilliseconds: Int64)
        /// Nothing: it was enqueued or running when saved, and runs (again) when the device is
        /// restored, as WorkManager runs again a work whose process died under it.
        case run
    }

    /// The unique work's name (`enqueueUniqueWork`'s first argument).
    public var name: String
    public var request: OneTimeWorkRequest
    /// Runs that answered `retry` (the next run's `runAttemptCount`).
    public var attempts: Int
    public var wait: Wait

    public init(name: String, request: OneTimeWorkRequest, attempts: Int, wait: Wait) {
        self.name = name
        self.request = request
        self.attempts = attempts
        self.wait = wait
    }
}

/// A work whose worker class the app does not make (its ``SimulatedApp/createWorker(workerClassName:)``
/// answered nil): WorkManager fails the work, as Android's `WorkerFactory` does with
/// "Could not create Worker".
public struct UnknownWorker: Error, CustomStringConvertible {
    public let workerClassName: String

    public var description: String { "could not create worker \(workerClassName): the app's createWorker has none" }
}
