import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file descriptors of the devices' journals, opened when a journal is written or synced and
/// kept for the next time, at most ``limit`` at once: to open one more, the least recently used
/// that no one is using is closed. A device used to hold its journal open for life, so under
/// `ulimit -n 256` (macOS launchd's default soft limit) the 239th device failed with "Too many
/// open files", new clients could not connect, and a restart failed the same way on every try.
///
/// Keyed by journal, not by path: a compaction puts a new journal file where the old one was,
/// and the old journal's descriptor must go on naming the old file until it is finished.
// unchecked: lock-protected: every var is touched only under `lock` (NSLock, which TSan follows; Mutex it cannot see)
final class JournalDescriptors: @unchecked Sendable {
    /// Descriptors kept open at most (more only while all are in use at once).
    let limit: Int
    private let lock = NSLock()
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var tick: UInt64 = 0

    private struct Entry {
        /// -1 while none is open (a finished journal's entry, kept until the journal goes).
        var descriptor: Int32
        var users: Int
        var lastUse: UInt64
        /// The journal is finished: the descriptor is closed once no one uses it, and the file is
        /// never opened again for it (its path may name another journal by then, or nothing).
        var retired = false
    }

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Descriptors open now.
    var openCount: Int { lock.withLock { entries.values.filter { $0.descriptor >= 0 }.count } }

    /// Runs `body` with `journal`'s descriptor (`path`, opened for appending if it is not open).
    func withDescriptor<T>(_ journal: AnyObject, path: String, _ body: (Int32) throws(JournalError) -> T) throws(JournalError)
        -> T
    {
        let key = ObjectIdentifier(journal)
        let descriptor = try acquire(key, path: path)
        defer { release(key) }
        return try body(descriptor)
    }

    /// `journal` is finished: its descriptor is closed (at once, or when its last user is done),
    /// and ``withDescriptor(_:path:_:)`` refuses it from now on (``JournalError/closed(_:)``).
    func retire(_ journal: AnyObject) {
        let key = ObjectIdentifier(journal)
        lock.withLock {
            var entry = entries[key] ?? Entry(descriptor: -1, users: 0, lastUse: 0)
            entry.retired = true
            if entry.users == 0, entry.descriptor >= 0 {
                close(entry.descriptor)
                entry.descriptor = -1
            }
            entries[key] = entry
        }
    }

    /// `journal` is gone: whatever is kept for it goes too.
    func remove(_ journal: AnyObject) {
        let key = ObjectIdentifier(journal)
        lock.withLock {
            guard let entry = entries.removeValue(forKey: key) else { return }
            if entry.descriptor >= 0 { close(entry.descriptor) }
        }
    }

    private func acquire(_ key: ObjectIdentifier, path: String) throws(JournalError) -> Int32 {
        lock.lock()
        defer { lock.unlock() }
        tick += 1
        if var entry = entries[key] {
            guard !entry.retired || entry.descriptor >= 0 else { throw .closed(path) }
            entry.users += 1
            entry.lastUse = tick
            entries[key] = entry
            return entry.descriptor
        }
        while openCountLocked >= limit, closeLeastRecentlyUsed() {}
        var descriptor = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW)
        // Out of descriptors (clients took them): give up one of ours rather than fail.
        while descriptor < 0, errno == EMFILE || errno == ENFILE, closeLeastRecentlyUsed() {
            descriptor = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW)
        }
        guard descriptor >= 0 else { throw .system(SystemCallError("open", path)) }
        entries[key] = Entry(descriptor: descriptor, users: 1, lastUse: tick)
        return descriptor
    }

    private var openCountLocked: Int { entries.values.filter { $0.descriptor >= 0 }.count }

    private func release(_ key: ObjectIdentifier) {
        lock.withLock {
            guard var entry = entries[key] else { return }
            entry.users -= 1
            if entry.users == 0, entry.retired, entry.descriptor >= 0 {
                close(entry.descriptor)
                entry.descriptor = -1
            }
            entries[key] = entry
        }
    }

    /// Under `lock`. False when every open descriptor is in use.
    private func closeLeastRecentlyUsed() -> Bool {
        let idle = entries.filter { $0.value.users == 0 && $0.value.descriptor >= 0 }
        guard let (key, entry) = idle.min(by: { $0.value.lastUse < $1.value.lastUse }) else { return false }
        close(entry.descriptor)
        entries[key] = entry.retired ? Entry(descriptor: -1, users: 0, lastUse: 0, retired: true) : nil
        return true
    }
}
