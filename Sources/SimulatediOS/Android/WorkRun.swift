import Foundation
import Synchronization

/// The run of a WorkManager work the calling task belongs to, if any: cancelled when its unique
/// work is replaced (`ExistingWorkPolicy.REPLACE`). A `CoroutineWorker` is cancelled
/// cooperatively: the platform calls it makes (Room, network) throw `CancellationError` once it is.
public final class WorkRun: Sendable {
    @TaskLocal static var current: WorkRun?

    private let cancelled = Atomic<Bool>(false)

    init() {}

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    func cancel() { cancelled.store(true, ordering: .releasing) }

    /// Throws `CancellationError` when the calling work run was cancelled.
    static func checkCancellation() throws {
        if let run = current, run.isCancelled { throw CancellationError() }
    }
}
