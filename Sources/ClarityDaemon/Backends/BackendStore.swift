import ControlProtocol
import DeviceActors
import Foundation
import ThePhoneBackend

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The Phone's backends on disk, in `<stateDir>/backends/`: per backend a snapshot,
/// `<name>.json` (replaced whole, ``AtomicFile``), and the journal that continues it,
/// `<name>.<G>.journal`, one ``BackendOperation`` per line. A request's changes are appended
/// before the request's own journal line is written, so that whatever a device was told the
/// backend stored is on disk first; after `compactAfter` lines, or once the journal holds as many
/// bytes as its snapshot and at least `compactAfterBytes`, the backend is snapshotted into a new
/// generation (docs/apps/thephone-backend.md, "Hosted in the daemon").
final class BackendStore: Sendable {
    let directory: URL
    let servers: Servers
    private let log: Logger
    /// Whether writes are synced to disk (config `durability` `fsync`).
    private let syncs: Bool
    /// Per backend on disk: its journal's generation, lines and bytes, and its snapshot's bytes.
    private let journals = Protected<[String: Journal]>([:])
    /// One save at a time: devices on several lanes share a backend.
    private let writing = NSLock()
    /// Journal lines after which a backend is snapshotted again (10,000 by default).
    private let compactAfter: Int
    /// The fewest journal bytes that make a backend snapshotted again (1 MiB by default).
    private let compactAfterBytes: Int

    /// Where a backend's journal stands.
    private struct Journal {
        var generation: Int
        var lines = 0
        var bytes = 0
        /// The size of the snapshot the journal continues.
        var snapshotBytes: Int

        /// Whether the backend is due a snapshot: `compactAfter` lines, or a journal as large as
        /// its snapshot and at least `compactAfterBytes` (redis's `auto-aof-rewrite-percentage`
        /// 100 with a minimum size). Lines alone let the journal grow without bound: The Phone's
        /// syncs can carry every unsynced event, and the soak's backend journal reached 10 MB in
        /// 1 800 lines, on its way to 2.6 GB before its 10,000th (docs/reliability.md).
        func isDue(lines maxLines: Int, bytes minBytes: Int) -> Bool {
            lines >= maxLines || bytes >= max(minBytes, snapshotBytes)
        }
    }

    /// Reads every saved backend (one that cannot be read is moved aside and logged).
    init(stateDirectory: URL, syncs: Bool, log: Logger, compactAfter: Int = 10_000, compactAfterBytes: Int = 1 << 20) throws {
        self.compactAfter = compactAfter
        self.compactAfterBytes = compactAfterBytes
        directory = stateDirectory.appendingPathComponent("backends", isDirectory: true)
        self.log = log
        self.syncs = syncs
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var hosts: [BackendHost] = []
        var found: [String: Journal] = [:]
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for file in files.sorted() where file.hasSuffix(".json") {
            let path = directory.appendingPathComponent(file).path
            do {
                let snapshot = try Data(contentsOf: URL(fileURLWithPath: path))
                let stored = try Self.decodeSnapshot(snapshot)
                guard "\(stored.name).json" == file else { throw CocoaError(.fileReadCorruptFile) }
                let generation = stored.journal ?? 0
                let (operations, bytes) = Self.operations(in: directory.appendingPathComponent("\(stored.name).\(generation).journal"))
                hosts.append(BackendHost(restoring: stored, operations: operations))
                found[stored.name] = Journal(generation: generation, lines: operations.count, bytes: bytes, snapshotBytes: snapshot.count)
            } catch {
                let aside = path + ".corrupt-\(Int(Date().timeIntervalSince1970))"
                try? FileManager.default.moveItem(atPath: path, toPath: aside)
                log.error("backend file \(file) could not be read (\(error)); moved aside to \(aside)")
            }
        }
        servers = Servers(hosts)
        journals.withLock { $0 = found }
        if !hosts.isEmpty { log.info("backends restored: \(hosts.map(\.name).joined(separator: ", "))") }
    }

    /// The operations a journal holds, up to its first line that does not read (a line torn by a
    /// crash, which no answer waited for), and the journal's bytes.
    private static func operations(in journal: URL) -> ([BackendOperation], bytes: Int) {
        guard let data = try? Data(contentsOf: journal) else { return ([], 0) }
        return (operations(reading: data), data.count)
    }

    /// The operations of a journal's bytes, up to its first line that does not read.
    static func operations(reading data: Data) -> [BackendOperation] {
        var operations: [BackendOperation] = []
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard let operation = try? JSONDecoder().decode(BackendOperation.self, from: line),
                operation.now.map(PhoneBackend.times.contains) ?? true
            else { break }
            operations.append(operation)
        }
        return operations
    }

    /// A backend's snapshot file (`<name>.json`), as a restart reads it; throws what makes it
    /// unreadable (the restart logs it and moves the file aside).
    static func decodeSnapshot(_ data: Data) throws -> StoredBackend {
        let stored = try JSONDecoder().decode(StoredBackend.self, from: data)
        guard stored.backend.timesAreWithinRange else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "a clock or event time outside \(PhoneBackend.times) ms since 1970"))
        }
        return stored
    }

    /// Writes what every backend changed since the last save: a new backend's first snapshot,
    /// the others' operations appended to their journals (synced with durability `fsync`).
    /// Throws when a backend could not be written (the caller's request then fails: what it
    /// changed would not survive a restart).
    func saveChanged() throws {
        writing.lock()
        defer { writing.unlock() }
        for backend in servers.all {
            guard var journal = journals.withLock({ $0[backend.name] }) else {
                try snapshot(backend, generation: 0)
                continue
            }
            let operations = backend.takeOperations()
            guard !operations.isEmpty else { continue }
            var bytes: [UInt8] = []
            for operation in operations {
                try JSONWire.append(operation, to: &bytes)
                bytes.append(UInt8(ascii: "\n"))
            }
            try append(bytes, to: journalURL(backend.name, journal.generation))
            journal.lines += operations.count
            journal.bytes += bytes.count
            journals.withLock { [journal] in $0[backend.name] = journal }
            if journal.isDue(lines: compactAfter, bytes: compactAfterBytes) {
                try snapshot(backend, generation: journal.generation + 1)
            }
        }
    }

    /// Snapshots `backend` as continued by a new, empty journal of `generation`, then deletes the
    /// journal it replaces: a crash leaves the old snapshot and journal, or the new pair.
    private func snapshot(_ backend: BackendHost, generation: Int) throws {
        var stored = backend.snapshotTakingOperations()
        stored.journal = generation
        let fresh = journalURL(backend.name, generation)
        let snapshot = try JSONWire.bytes(stored)
        try AtomicFile.replace(fresh.path, with: [], in: directory.path, syncing: syncs)
        try AtomicFile.replace(
            directory.appendingPathComponent("\(backend.name).json").path, with: snapshot, in: directory.path, syncing: syncs)
        if generation > 0 { unlink(journalURL(backend.name, generation - 1).path) }
        journals.withLock { $0[backend.name] = Journal(generation: generation, snapshotBytes: snapshot.count) }
    }

    private func journalURL(_ name: String, _ generation: Int) -> URL {
        directory.appendingPathComponent("\(name).\(generation).journal")
    }

    private func append(_ bytes: [UInt8], to url: URL) throws {
        let fd = open(url.path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw DeviceStateStore.StoreError.io("open \(url.path)", errno) }
        defer { close(fd) }
        try AtomicFile.writeAll(bytes, to: fd, naming: url.path)
        guard !syncs || fdatasync(fd) == 0 else { throw DeviceStateStore.StoreError.io("fdatasync \(url.path)", errno) }
    }
}

extension Array {
    /// The array, or nil when empty (an optional field left out of a record).
    var nonEmpty: Self? { isEmpty ? nil : self }
}
