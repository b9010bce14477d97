import Foundation

/// The run of a WorkManager work the calling task belongs to, if any: cancelled when its unique
/// work is replaced (`ExistingWorkPolicy.REPLACE`). A `CoroutineWorker` is cancelled
/// cooperatively: the platform calls it makes (Room, network) throw `CancellationError` once it is.
public final class WorkRun: @unchecked Sendable {
    @TaskLocal static var current: WorkRun?

    private let lock = NSLock()
    private var cancelled = false

    init() {}

    var isCancelled: Bool { lock.withLock { cancelled } }

    func cancel() { lock.withLock { cancelled = true } }

    /// Throws `CancellationError` when the calling work run was cancelled.
    static func checkCancellation() throws {
        if let run = current, run.isCancelled { throw CancellationError() }
    }
}
