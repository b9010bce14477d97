import ControlProtocol
import DeviceActors
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The Phone's backends on disk, in `<stateDir>/backends/`: per backend a snapshot,
/// `<name>.json` (replaced whole, ``AtomicFile``), and the journal that continues it,
/// `<name>.<G>.journal`, one ``BackendOperation`` per line. A request's changes are appended
/// before the request's own journal line is written, so that whatever a device was told the
/// backend stored is on disk first; after `compactAfter` lines the backend is snapshotted into
/// a new generation (docs/apps/thephone-backend.md, "Hosted in the daemon").
final class BackendStore: Sendable {
    let directory: URL
    let servers: Servers
    private let log: Logger
    /// Whether writes are synced to disk (config `durability` `fsync`).
    private let syncs: Bool
    /// Per backend on disk: its journal's generation and lines.
    private let journals = Protected<[String: (generation: Int, lines: Int)]>([:])
    /// One save at a time: devices on several lanes share a backend.
    private let writing = NSLock()
    /// Journal lines after which a backend is snapshotted again (10,000 by default).
    private let compactAfter: Int

    /// Reads every saved backend (one that cannot be read is moved aside and logged).
    init(stateDirectory: URL, syncs: Bool, log: Logger, compactAfter: Int = 10_000) throws {
        self.compactAfter = compactAfter
        directory = stateDirectory.appendingPathComponent("backends", isDirectory: true)
        self.log = log
        self.syncs = syncs
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var hosts: [BackendHost] = []
        var found: [String: (generation: Int, lines: Int)] = [:]
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for file in files.sorted() where file.hasSuffix(".json") {
            let path = directory.appendingPathComponent(file).path
            do {
                let stored = try JSONDecoder().decode(StoredBackend.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
                guard "\(stored.name).json" == file else { throw CocoaError(.fileReadCorruptFile) }
                let generation = stored.journal ?? 0
                let operations = Self.operations(in: directory.appendingPathComponent("\(stored.name).\(generation).journal"))
                hosts.append(BackendHost(restoring: stored, operations: operations))
                found[stored.name] = (generation, operations.count)
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
    /// crash, which no answer waited for).
    private static func operations(in journal: URL) -> [BackendOperation] {
        guard let data = try? Data(contentsOf: journal) else { return [] }
        var operations: [BackendOperation] = []
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard let operation = try? JSONDecoder().decode(BackendOperation.self, from: line) else { break }
            operations.append(operation)
        }
        return operations
    }

    /// Writes what every backend changed since the last save: a new backend's first snapshot,
    /// the others' operations appended to their journals (synced with durability `fsync`).
    /// Throws when a backend could not be written (the caller's request then fails: what it
    /// changed would not survive a restart).
    func saveChanged() throws {
        writing.lock()
        defer { writing.unlock() }
        for backend in servers.all {
            guard let journal = journals.withLock({ $0[backend.name] }) else {
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
            let lines = journal.lines + operations.count
            journals.withLock { $0[backend.name] = (journal.generation, lines) }
            if lines >= compactAfter { try snapshot(backend, generation: journal.generation + 1) }
        }
    }

    /// Snapshots `backend` as continued by a new, empty journal of `generation`, then deletes the
    /// journal it replaces: a crash leaves the old snapshot and journal, or the new pair.
    private func snapshot(_ backend: BackendHost, generation: Int) throws {
        var stored = backend.snapshotTakingOperations()
        stored.journal = generation
        let fresh = journalURL(backend.name, generation)
        try AtomicFile.replace(fresh.path, with: [], in: directory.path, syncing: syncs)
        try AtomicFile.replace(
            directory.appendingPathComponent("\(backend.name).json").path, with: try JSONWire.bytes(stored), in: directory.path,
            syncing: syncs)
        if generation > 0 { unlink(journalURL(backend.name, generation - 1).path) }
        journals.withLock { $0[backend.name] = (generation, 0) }
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
