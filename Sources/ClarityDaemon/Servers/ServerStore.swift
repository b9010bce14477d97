import ControlProtocol
import DeviceActors
import Foundation
@_spi(Host) import SimulatediOS

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The apps' server instances on disk, each server in its own directory (``ServerFiles``): per
/// instance a snapshot and the journal that continues it, one ``ServerOperation`` per line. A
/// request's changes are appended before the request's own journal line is written, so that
/// whatever a device was told the server stored is on disk first; after `compactAfter` lines, or
/// once the journal holds as many bytes as its snapshot and at least `compactAfterBytes`, the
/// instance is snapshotted into a new generation (docs/sdk.md, "Your app's own server").
///
/// A journal is deleted only once it was folded into a snapshot that was written and read
/// back, and only at the compaction after that one: until then it and the snapshot before it
/// rebuild the instance if the newest snapshot cannot be read (``ServerRestore``).
final class ServerStore: Sendable {
    let servers: Servers
    /// Each server's files, by its name.
    private let files: [String: ServerFiles]
    private let log: Logger
    /// Whether writes are synced to disk (config `durability` `fsync`).
    private let syncs: Bool
    /// Where each instance's files stand, by ``key(_:)``.
    private let generations = Protected<[String: Generation]>([:])
    /// One save at a time: devices on several lanes share a backend.
    private let writing = NSLock()
    /// Journal lines after which a backend is snapshotted again (10,000 by default).
    private let compactAfter: Int
    /// The fewest journal bytes that make a backend snapshotted again (1 MiB by default).
    private let compactAfterBytes: Int

    /// Where a backend's files stand.
    struct Generation {
        /// The generation of the journal appended to.
        var journal: Int
        var lines = 0
        var bytes = 0
        /// The size of the snapshot the journal continues.
        var snapshotBytes: Int
        /// The generation `<name>.json` names; nil while there is none that reads.
        var snapshot: Int?
        /// The oldest generation whose files rebuild the backend without `<name>.json`.
        var rebuiltFrom: Int
        /// The backend is snapshotted before anything more is appended: it was rebuilt from
        /// other files than its snapshot and the one journal after it.
        var mustCompact = false
        /// The journal holds a line a restart could not read, and could not be cut back: nothing
        /// is ever appended to it; the next save snapshots the backend.
        var journalIsSealed = false

        /// Whether the backend is due a snapshot: `compactAfter` lines, or a journal as large as
        /// its snapshot and at least `compactAfterBytes` (redis's `auto-aof-rewrite-percentage`
        /// 100 with a minimum size). Lines alone let the journal grow without bound: a request can
        /// carry every unsynced event, and the soak's server journal reached 10 MB in
        /// 1 800 lines, on its way to 2.6 GB before its 10,000th (docs/reliability.md).
        func isDue(lines maxLines: Int, bytes minBytes: Int) -> Bool {
            mustCompact || journalIsSealed || lines >= maxLines || bytes >= max(minBytes, snapshotBytes)
        }
    }

    /// What makes a backend file unreadable beyond its JSON.
    struct Damage: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Reads every saved instance of `registrations`' servers (``ServerRestore``); one rebuilt
    /// from other files than its snapshot and journal is snapshotted at once.
    init(
        stateDirectory: URL, registrations: [ServerRegistration], syncs: Bool, log: Logger, compactAfter: Int = 10_000,
        compactAfterBytes: Int = 1 << 20
    ) throws {
        self.compactAfter = compactAfter
        self.compactAfterBytes = compactAfterBytes
        self.log = log
        self.syncs = syncs
        var files: [String: ServerFiles] = [:]
        var restored: [ServerRestore] = []
        for registration in registrations where files[registration.name] == nil {
            let directory = stateDirectory.appendingPathComponent(registration.stateDirectory, isDirectory: true)
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let serverFiles = ServerFiles(registration: registration, directory: directory)
            files[registration.name] = serverFiles
            for (name, found) in serverFiles.found().sorted(by: { $0.key < $1.key }) where ServerRegistration.isName(name) {
                if let instance = ServerRestore(name, found, in: serverFiles, log: log) { restored.append(instance) }
            }
        }
        self.files = files
        servers = Servers(restored.map(\.host))
        generations.withLock { $0 = Dictionary(uniqueKeysWithValues: restored.map { (Self.key($0.host), $0.files) }) }
        for instance in restored where instance.files.mustCompact || instance.files.journalIsSealed {
            let files = files[instance.host.registration.name]!
            do {
                try compact(instance.host, instance.files, files)
            } catch {
                log.error("\(files.subject(instance.host.name)) could not be snapshotted after its restore (\(error)); the next save tries again")
            }
        }
        if !restored.isEmpty {
            log.info("server instances restored: \(restored.map { files[$0.host.registration.name]!.subject($0.host.name) }.joined(separator: ", "))")
        }
    }

    /// An instance's key among ``generations``: server and instance names hold no `/`.
    private static func key(_ host: ServerHost) -> String { host.registration.name + "/" + host.name }

    /// The files of `host`'s server.
    private func files(of host: ServerHost) throws -> ServerFiles {
        guard let found = files[host.registration.name] else {
            throw Damage("server \(host.registration.name) was not registered with the daemon: its instances have no directory")
        }
        return found
    }

    /// Applies the operations of a journal's bytes to `host` in order, up to the first line
    /// that does not read as one or cannot apply (``ServerHost/replay(_:)``).
    static func replay(_ journal: Data, on host: ServerHost) -> JournalScan {
        let decoder = JSONDecoder()
        return JournalScan(journal) { _, line in
            guard let operation = try? decoder.decode(ServerOperation.self, from: line) else { return false }
            return host.replay(operation)
        }
    }

    /// Writes what every instance changed since the last save: a new instance's first journal and
    /// snapshot, the others' operations appended to their journals (synced with durability
    /// `fsync`). Throws when a backend could not be written (the caller's request then fails:
    /// what it changed would not survive a restart; the backend keeps its operations for the
    /// next save).
    func saveChanged() throws {
        writing.lock()
        defer { writing.unlock() }
        for backend in servers.all {
            let files = try files(of: backend)
            guard var generation = generations.withLock({ $0[Self.key(backend)] }) else {
                try start(backend, files)
                continue
            }
            if !generation.mustCompact, !generation.journalIsSealed {
                let operations = backend.takeOperations()
                guard !operations.isEmpty else { continue }
                let bytes: [UInt8]
                do {
                    bytes = try Self.lines(operations)
                    try append(bytes, to: files.journal(backend.name, generation.journal))
                } catch {
                    backend.putBack(operations)
                    throw error
                }
                generation.lines += operations.count
                generation.bytes += bytes.count
                generations.withLock { [generation] in $0[Self.key(backend)] = generation }
            }
            guard generation.isDue(lines: compactAfter, bytes: compactAfterBytes) else { continue }
            do {
                try compact(backend, generation, files)
            } catch where !generation.mustCompact && !generation.journalIsSealed {
                // What the request changed is in the journal already; the next save tries again.
                log.error("\(files.subject(backend.name)) could not be snapshotted (\(error)); its journal grows until it can be")
            }
        }
    }

    /// A new instance's first save: generation 0's journal, every operation since its creation
    /// (the first says when it was made), then its snapshot as made. A journal of that name
    /// the start did not read is moved aside first, never written over.
    private func start(_ backend: ServerHost, _ files: ServerFiles) throws {
        let operations = backend.takeOperations()
        guard case .created(let now)? = operations.first else {
            backend.putBack(operations)
            throw Damage("\(files.subject(backend.name)) was not made here: no creation starts its operations")
        }
        let journal = files.journal(backend.name, 0)
        if FileManager.default.fileExists(atPath: journal) {
            log.error("\(files.subject(backend.name)): \(journal) was not read at the start; moved aside to \(files.moveAside(journal))")
        }
        let bytes: [UInt8]
        let snapshotBytes: Int
        do {
            bytes = try Self.lines(operations)
            try AtomicFile.replace(journal, with: bytes, in: files.directory.path, syncing: syncs)
            snapshotBytes = try writeSnapshot(.created(backend.registration, name: backend.name, now: now, journal: 0), files)
        } catch {
            unlink(journal)
            backend.putBack(operations)
            throw error
        }
        generations.withLock {
            $0[Self.key(backend)] = Generation(
                journal: 0, lines: operations.count, bytes: bytes.count, snapshotBytes: snapshotBytes, snapshot: 0, rebuiltFrom: 0)
        }
    }

    /// Snapshots `backend` into generation G + 1: the operations not written yet are appended
    /// to journal G (which then, after the snapshot G names, gives the new snapshot back), an
    /// empty journal G + 1 is made, `<name>.json` is kept as `<name>.<G'>.snapshot` (G' the
    /// generation it names), the new snapshot is written over it and read back; then the files
    /// older than G' are deleted. A crash leaves a snapshot that reads and the journals after
    /// it; a snapshot that does not read back is undone, and the backend stays in generation G.
    private func compact(_ backend: ServerHost, _ generation: Generation, _ files: ServerFiles) throws {
        let name = backend.name
        let (stored, operations) = backend.snapshotTakingOperations()
        let journal = files.journal(name, generation.journal)
        if !FileManager.default.fileExists(atPath: journal) {
            // It went missing (logged at the start): the empty journal says the snapshot it continues is all there is.
            try AtomicFile.replace(journal, with: [], in: files.directory.path, syncing: syncs)
        }
        // Over a sealed journal the operations are in the new snapshot only.
        if !operations.isEmpty, !generation.journalIsSealed {
            do {
                try append(try Self.lines(operations), to: journal)
            } catch {
                backend.putBack(operations)
                throw error
            }
        }
        let next = generation.journal + 1
        let current = files.snapshot(name)
        let kept = generation.snapshot.map { files.previousSnapshot(name, $0) }
        try AtomicFile.replace(files.journal(name, next), with: [], in: files.directory.path, syncing: syncs)
        if let kept {
            unlink(kept)
            guard link(current, kept) == 0 || (try? FileManager.default.copyItem(atPath: current, toPath: kept)) != nil else {
                let failure = SystemCallError("link", current)
                unlink(files.journal(name, next))
                throw failure
            }
        }
        var snapshot = stored
        snapshot.journal = next
        let bytes: Int
        do {
            bytes = try writeSnapshot(snapshot, files)
        } catch {
            if let kept { rename(kept, current) } else { unlink(current) }
            unlink(files.journal(name, next))
            throw error
        }
        let rebuiltFrom = generation.snapshot ?? generation.rebuiltFrom
        files.deleteGenerations(of: name, before: rebuiltFrom)
        if syncs { AtomicFile.syncDirectory(files.directory.path) }
        generations.withLock {
            $0[Self.key(backend)] = Generation(journal: next, snapshotBytes: bytes, snapshot: next, rebuiltFrom: rebuiltFrom)
        }
    }

    /// Writes `stored` as `<name>.json` and reads it back; throws unless it reads back as
    /// written. Returns its size.
    private func writeSnapshot(_ stored: StoredServer, _ files: ServerFiles) throws -> Int {
        let path = files.snapshot(stored.name)
        let bytes = try stored.bytes()
        try AtomicFile.replace(path, with: bytes, in: files.directory.path, syncing: syncs)
        let back = try Data(contentsOf: URL(fileURLWithPath: path))
        guard back.elementsEqual(bytes), try StoredServer.decode(back, of: files.registration) == stored else {
            throw Damage("\(path) does not read back as it was written")
        }
        return bytes.count
    }

    private static func lines(_ operations: [ServerOperation]) throws -> [UInt8] {
        var bytes: [UInt8] = []
        for operation in operations {
            try JSONWire.append(operation, to: &bytes)
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }

    /// Appends `bytes` to the journal at `path`; a write or sync that fails is cut off again, so
    /// the file ends with the last whole line and the caller can give the operations back.
    private func append(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw DeviceStateStore.StoreError.io("open \(path)", errno) }
        defer { close(fd) }
        let start = lseek(fd, 0, SEEK_END)
        do {
            try AtomicFile.writeAll(bytes, to: fd, naming: path)
            guard !syncs || fdatasync(fd) == 0 else { throw DeviceStateStore.StoreError.io("fdatasync \(path)", errno) }
        } catch {
            if start >= 0 { _ = ftruncate(fd, start) }
            throw error
        }
    }
}

extension Array {
    /// The array, or nil when empty (an optional field left out of a record).
    var nonEmpty: Self? { isEmpty ? nil : self }
}
