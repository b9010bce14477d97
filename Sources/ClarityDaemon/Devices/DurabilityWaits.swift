/// The journal lines one request line's answer must wait for: collected while the line is
/// answered (a batch may touch several devices), then ``whenDurable(_:)`` holds the answer back
/// until they are all on disk.
///
/// Touched by one thread at a time: the one answering the line, then the one that hands the
/// answer on.
// unchecked: handed from thread to thread, touched by one at a time (the lane, then the answer's)
final class DurabilityWaits: @unchecked Sendable {
    private var pending: [(journal: DeviceJournal, offset: Int64)] = []

    /// The answer must wait until `journal` has synced up to `offset`.
    func add(_ journal: DeviceJournal, upTo offset: Int64) {
        pending.append((journal, offset))
    }

    /// Calls `deliver` once every line added is on disk: at once when none was added.
    func whenDurable(_ deliver: @escaping @Sendable () -> Void) {
        let waits = pending
        pending = []
        guard !waits.isEmpty else {
            deliver()
            return
        }
        let remaining = Protected(waits.count)
        for wait in waits {
            wait.journal.whenSynced(wait.offset) {
                let last = remaining.withLock { count in
                    count -= 1
                    return count == 0
                }
                if last { deliver() }
            }
        }
    }
}
