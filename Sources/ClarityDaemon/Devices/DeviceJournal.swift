import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A device's journal file, appended to: one line per request that changed the device. Its
/// descriptor is lent by ``JournalDescriptors`` while it is written or synced, so a device holds
/// none for long.
///
/// ``append(_:)`` writes the line with one `write` before the request is answered, so a
/// `kill -9` of the daemon loses nothing answered. What must also survive a power cut waits for
/// ``whenSynced(_:_:)``: a group commit, in which one `fdatasync` covers every line appended
/// before it, so that concurrent clients of one device share the cost of a sync instead of
/// queueing for one each. With `syncs` false (config `durability: "write"`) nothing waits; the
/// file is synced at shutdown. With `syncsWithin` (`durability: "everysec"`) nothing waits either,
/// but the lines appended are synced at most that many seconds later: one sync covers every line
/// of that second. Syncs run on `syncThreads`, the daemon's threads for them, never
/// on Dispatch's pool (which an exploration can keep busy).
// unchecked: lock-protected: every var is touched only under `lock` (NSLock, which TSan follows; Mutex it cannot see)
final class DeviceJournal: @unchecked Sendable {
    let path: String
    let syncs: Bool
    /// Seconds after an append by which it is synced, when replies do not wait (`everysec`).
    let syncsWithin: Double?
    private let syncThreads: WorkerThreads
    private let descriptors: JournalDescriptors
    private let lock = NSLock()
    /// Bytes written so far (the file's length), under `lock`.
    private var written: Int64
    /// Bytes known to be on disk, under `lock`.
    private var synced: Int64
    private var syncing = false
    /// A sync is due within ``syncsWithin`` (`everysec`): one timer covers every line until it fires.
    private var syncScheduled = false
    /// Where the timers of every `everysec` journal wait before handing the sync to `syncThreads`.
    private static let timers = DispatchQueue(label: "clarityd.journal.everysec")
    private var waiters: [(offset: Int64, done: @Sendable () -> Void)] = []
    private var closed = false
    private let log: Logger

    /// The journal at `path`, a regular file (not a symlink), appended to from its current
    /// length, which is taken as synced (it was synced, or written by a daemon that is gone,
    /// before this one opened it).
    init(
        path: String, syncs: Bool, syncsWithin: Double? = nil, syncThreads: WorkerThreads, descriptors: JournalDescriptors,
        log: Logger
    ) throws(JournalError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw .system(SystemCallError("stat", path)) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            errno = EINVAL
            throw .system(SystemCallError("open (not a regular file)", path))
        }
        self.path = path
        self.syncs = syncs
        self.syncsWithin = syncs ? nil : syncsWithin
        self.syncThreads = syncThreads
        self.descriptors = descriptors
        self.written = Int64(info.st_size)
        self.synced = Int64(info.st_size)
        self.log = log
    }

    deinit {
        descriptors.remove(self)
    }

    private enum SyncOutcome {
        case synced, failed, finished
    }

    /// `fdatasync` of the file: `failed` (errno set) when it failed or the file could not be
    /// opened; `finished` when the journal was finished meanwhile (which synced it).
    private func syncFile() -> SyncOutcome {
        do {
            return try descriptors.withDescriptor(self, path: path) { descriptor in
                fdatasync(descriptor) == 0 ? .synced : .failed
            }
        } catch .closed {
            return .finished
        } catch {
            return .failed
        }
    }

    /// Appends one line (`bytes` without its newline); returns the offset at which the line ends.
    func append(_ bytes: [UInt8]) throws(JournalError) -> Int64 {
        var line = bytes
        line.append(UInt8(ascii: "\n"))
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { throw .closed(path) }
        let start = written
        try descriptors.withDescriptor(self, path: path) { descriptor throws(JournalError) in
            var offset = 0
            while offset < line.count {
                let count = line.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, line.count - offset) }
                if count < 0 {
                    if errno == EINTR { continue }
                    let failure = SystemCallError("write", path)
                    // The part written is cut off again, so the file ends with the last whole line.
                    if offset > 0 { _ = ftruncate(descriptor, off_t(start)) }
                    throw .system(failure)
                }
                offset += count
            }
        }
        written += Int64(line.count)
        if let syncsWithin, !syncScheduled {
            syncScheduled = true
            Self.timers.asyncAfter(deadline: .now() + syncsWithin) { [weak self] in
                guard let self else { return }
                self.syncThreads.submit { self.timedSync() }
            }
        }
        return written
    }

    /// `everysec`: syncs everything written so far, unless the journal was finished meanwhile
    /// (which synced it).
    private func timedSync() {
        let target: Int64? = lock.withLock {
            syncScheduled = false
            return closed || synced >= written ? nil : written
        }
        guard let target else { return }
        switch syncFile() {
        case .failed: log.error("journal \(path): \(SystemCallError("fdatasync", path)); the last second may not survive a power cut")
        case .synced: lock.withLock { synced = max(synced, target) }
        case .finished: break
        }
    }

    /// Calls `done` once every byte up to `offset` is on disk (at once when this journal does not
    /// sync). Syncs run off the caller's thread, one at a time per journal; each covers all the
    /// lines written before it started.
    func whenSynced(_ offset: Int64, _ done: @escaping @Sendable () -> Void) {
        enum Next { case now, wait, startSyncing }
        let next: Next = lock.withLock {
            guard syncs, synced < offset, !closed else { return .now }
            waiters.append((offset, done))
            if syncing { return .wait }
            syncing = true
            return .startSyncing
        }
        switch next {
        case .now: done()
        case .wait: break
        case .startSyncing: syncThreads.submit { self.syncLoop() }
        }
    }

    /// Syncs until no one waits: each round syncs everything written so far and releases the
    /// waiters it covers; whoever arrived meanwhile is served by the next round.
    private func syncLoop() {
        while true {
            let target = lock.withLock { written }
            if syncFile() == .failed {
                log.error("journal \(path): \(SystemCallError("fdatasync", path)); replies go out unsynced")
            }
            let (ready, more): ([@Sendable () -> Void], Bool) = lock.withLock {
                synced = max(synced, target)
                let due = waiters.filter { $0.offset <= target }.map(\.done)
                waiters.removeAll { $0.offset <= target }
                if waiters.isEmpty { syncing = false }
                return (due, !waiters.isEmpty)
            }
            for done in ready { done() }
            if !more { return }
        }
    }

    /// Syncs what was written and ends the journal: later appends fail. Waiters are released,
    /// and the descriptor is closed. Returns false when the sync failed
    /// (logged): what was written may not survive an OS crash.
    @discardableResult
    func finish() -> Bool {
        let (synced, pending): (Bool, [@Sendable () -> Void]) = lock.withLock {
            guard !closed else { return (true, []) }
            closed = true
            var ok = true
            if written > self.synced, syncFile() != .synced {
                ok = false
                log.error("journal \(path): \(SystemCallError("fdatasync", path))")
            }
            descriptors.retire(self)
            self.synced = written
            defer { waiters = [] }
            return (ok, waiters.map(\.done))
        }
        for done in pending { done() }
        return synced
    }
}

/// Why a journal could not be written.
enum JournalError: Error, CustomStringConvertible {
    case system(SystemCallError)
    case closed(String)

    var description: String {
        switch self {
        case .system(let error): error.description
        case .closed(let path): "\(path) is closed"
        }
    }
}
