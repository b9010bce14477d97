import Foundation

/// Collects what the bench clients measured, from their threads.
// unchecked: lock-protected: every var is touched only under `lock` (NSLock, which TSan follows; Mutex it cannot see)
final class BenchTally: @unchecked Sendable {
    private let lock = NSLock()
    private var outcome = BenchConnection.Outcome()
    private var failure: (any Error)?

    func record(_ clientOutcome: BenchConnection.Outcome) {
        lock.withLock {
            outcome.latencies += clientOutcome.latencies
            outcome.errors += clientOutcome.errors
            let room = max(0, BenchConnection.keptErrorSamples - outcome.errorSamples.count)
            outcome.errorSamples += clientOutcome.errorSamples.prefix(room)
        }
    }

    /// A client that could not connect or lost its connection; the first one is reported.
    func record(failure error: any Error) {
        lock.withLock {
            if failure == nil { failure = error }
        }
    }

    func result() -> (outcome: BenchConnection.Outcome, failure: (any Error)?) {
        lock.withLock { (outcome, failure) }
    }
}
