import ControlProtocol
import DeviceActors
import Foundation
@_spi(Host) import SimulatediOS

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Device state on disk, in `<stateDir>/devices/`: per device a journal, `<name>.journal`, one
/// line per request that changed the device (``DeviceJournal``), after a header that says where
/// replaying it starts: at the device's creation, or at the snapshot `<name>.<G>.snapshot`
/// written by the `G`th compaction of a long journal. A device is its inputs: replayed, they
/// rebuild it exactly, random generator, timers, extensions and trace included.
///
/// A compaction writes the new snapshot, then renames a journal that continues from it over the
/// old one, then deletes the old snapshot: whenever a crash comes, the journal names a snapshot
/// that is there, and snapshots it does not name are deleted at the next start.
///
/// Files that cannot be read are reported and moved aside (`<file>.corrupt-<unix time>`), never
/// silently wiped. A last journal line cut short by a crash is dropped (it was never answered).
/// A state file of format 1, `<name>.json` (a snapshot, no journal), is read as the snapshot of
/// generation 0.
struct DeviceStateStore: Sendable {
    let directory: URL
    let log: Logger
    /// Whether journals sync before replies (config `durability`).
    let syncs: Bool
    /// `everysec`: journals are synced at most this many seconds after a line (replies don't wait).
    let syncsWithin: Double?
    /// The threads journals sync on.
    let syncThreads = WorkerThreads(name: "clarityd.sync", count: DeviceStateStore.syncThreadCount)
    /// The journals' descriptors, lent while they are written or synced.
    let descriptors: JournalDescriptors
    /// The instances of the apps' servers, saved beside the devices (each server's directory).
    let servers: ServerStore

    /// Journals synced at once: enough for devices on separate disks' worth of parallel syncs,
    /// few enough that a sync storm cannot grow the daemon's threads.
    static let syncThreadCount = 4

    /// A device as found on disk: where its replay starts and the requests to replay.
    struct StoredDevice {
        enum Base {
            case created(DeviceCreation)
            case snapshot(DeviceSnapshot)
            case replayed(ReplayOrigin)
        }

        let name: String
        let base: Base
        /// The generation of the snapshot `base` is (0 for a creation).
        let generation: Int
        let entries: JournalLines
        /// The build that wrote the journal, when its header says (``JournalBuild``).
        var writtenBy: String?

        /// The app the device runs.
        var appName: String {
            switch base {
            case .created(let creation): creation.app
            case .snapshot(let snapshot): snapshot.app
            case .replayed(let origin): origin.app
            }
        }
    }

    /// The lines of a journal after its header, each checked as it was read, and decoded again
    /// only as it is replayed: a journal of 200 000 lines held as decoded entries left the
    /// daemon at 165 MB where it had run in 63.
    struct JournalLines: Sequence {
        let data: Data
        let ranges: [Range<Data.Index>]

        static let none = JournalLines(data: Data(), ranges: [])

        var count: Int { ranges.count }

        func makeIterator() -> AnyIterator<JournalEntry> {
            var next = ranges.makeIterator()
            let data = data
            return AnyIterator {
                guard let range = next.next() else { return nil }
                return JournalLines.decode(data[range])
            }
        }

        static func decode(_ line: Data) -> JournalEntry? {
            try? JSONValueDecoder(unknownMembers: .ignore).decode(JournalEntry.self, from: JSONValue(parsing: line))
        }
    }

    /// The daemon secures `devices/` first (``PrivateDirectory``); this makes sure it exists.
    init(
        stateDirectory: URL, syncs: Bool, syncsWithin: Double? = nil, openJournals: Int, servers: [ServerRegistration] = [], log: Logger
    ) throws {
        directory = stateDirectory.appendingPathComponent("devices", isDirectory: true)
        self.log = log
        self.syncs = syncs
        self.syncsWithin = syncsWithin
        descriptors = JournalDescriptors(limit: openJournals)
        // Servers sync each operation under `everysec` too: they are written far less often.
        self.servers = try ServerStore(
            stateDirectory: stateDirectory, registrations: servers, syncs: syncs || syncsWithin != nil, log: log)
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    private func path(_ file: String) -> String { directory.appendingPathComponent(file).path }
    private func journalPath(_ name: String) -> String { path("\(name).journal") }
    private func snapshotPath(_ name: String, generation: Int) -> String {
        path(generation == 0 ? "\(name).json" : "\(name).\(generation).snapshot")
    }

    /// What a file in `devices/` is, and whose: `<name>.journal`, `<name>.json` (generation 0)
    /// or `<name>.<G>.snapshot`. Nil for any other file.
    static func owner(ofFile file: String) -> (name: String, generation: Int?)? {
        if file.hasSuffix(".journal") { return (String(file.dropLast(".journal".count)), nil) }
        if file.hasSuffix(".json") { return (String(file.dropLast(".json".count)), 0) }
        guard file.hasSuffix(".snapshot") else { return nil }
        let stem = file.dropLast(".snapshot".count)
        guard let dot = stem.lastIndex(of: ".") else { return nil }
        let digits = stem[stem.index(after: dot)...]
        guard (1...9).contains(digits.count), digits.first != "0", digits.allSatisfy({ ("0"..."9").contains($0) }),
            let generation = Int(digits)
        else { return nil }
        return (String(stem[..<dot]), generation)
    }

    /// The devices with files in `devices/`, each with the generations of its snapshots.
    private func snapshotGenerationsByName() -> [String: [Int]] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var byName: [String: [Int]] = [:]
        for case let (name, generation)? in files.map(Self.owner(ofFile:)) {
            byName[name, default: []] += generation.map { [$0] } ?? []
        }
        return byName
    }

    /// The snapshot generations on disk for device `name`.
    private func snapshotGenerations(_ name: String) -> [Int] {
        snapshotGenerationsByName()[name] ?? []
    }

    /// Deletes the snapshots of device `name` (its `generations` on disk, when known) other
    /// than generation `kept`.
    private func deleteSnapshots(_ name: String, of generations: [Int]? = nil, except kept: Int? = nil) {
        let stale = (generations ?? snapshotGenerations(name)).filter { $0 != kept }
        for generation in stale { unlink(snapshotPath(name, generation: generation)) }
        if !stale.isEmpty { syncDirectory() }
    }

    // MARK: - Loading

    /// The devices with files in `devices/`, by name, with the generations of their snapshots
    /// and the size of their journals; the files of a name that is not a device name are moved
    /// aside. Nothing is read: each device is loaded (``load(_:snapshots:)``) when its turn to
    /// be restored comes.
    func storedDevices() -> [(name: String, snapshots: [Int], journalBytes: Int)] {
        let devices = snapshotGenerationsByName()
        return devices.keys.sorted().compactMap { name in
            guard DeviceService.isDeviceName(name) else {
                let aside = moveAside(name)
                log.error("\(aside.joined(separator: ", ")): moved aside, \(name.debugDescription) is not a device name")
                return nil
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: journalPath(name))[.size] as? Int) ?? 0
            return (name, devices[name] ?? [], size)
        }
    }

    /// The device `name` as its files hold it (damaged files are moved aside, and the error says
    /// so); `snapshots` are the generations on disk, when the caller has listed them.
    func load(_ name: String, snapshots: [Int]? = nil) throws -> StoredDevice {
        guard FileManager.default.fileExists(atPath: journalPath(name)) else {
            guard FileManager.default.fileExists(atPath: snapshotPath(name, generation: 0)) else {
                let orphans = moveAside(name)
                throw StoreError.unreadable("snapshots without a journal were moved aside: \(orphans.joined(separator: ", "))")
            }
            // Format 1: a snapshot alone. It gets a journal that continues from it.
            let snapshot = try readSnapshot(name, generation: 0)
            let journal = try startJournal(
                name, header: JournalHeader(base: .snapshot(generation: 0, sequence: snapshot.traceSequence ?? 0)))
            journal.finish()
            log.info("device \(name): state file of format \(snapshot.format) read; journalling from now on")
            return StoredDevice(
                name: name, base: .snapshot(snapshot), generation: 0, entries: .none, writtenBy: JournalBuild.current)
        }
        let (header, entries) = try readJournal(name)
        // A journal that starts at the device's making (a creation, a replay's stop) names it.
        func made(as given: String, _ base: StoredDevice.Base) throws -> StoredDevice {
            guard given == name else { throw moveAside(journalPath(name), "it names device \"\(given)\"") }
            deleteSnapshots(name, of: snapshots)
            return StoredDevice(name: name, base: base, generation: 0, entries: entries, writtenBy: header.build)
        }
        switch header.base {
        case .created(let creation): return try made(as: creation.name, .created(creation))
        case .replayed(let origin): return try made(as: origin.name, .replayed(origin))
        case .snapshot(let generation, let sequence):
            let snapshot = try readSnapshot(name, generation: generation)
            guard (snapshot.traceSequence ?? 0) == sequence else {
                throw moveAside(
                    journalPath(name),
                    "it continues a snapshot at seq \(sequence), but its snapshot is at seq \(snapshot.traceSequence ?? 0)")
            }
            deleteSnapshots(name, of: snapshots, except: generation)
            return StoredDevice(
                name: name, base: .snapshot(snapshot), generation: generation, entries: entries, writtenBy: header.build)
        }
    }

    /// A snapshot as written by ``compact(_:generation:)``, read back.
    /// Read with Foundation's `JSONDecoder`, which does in 0.6 s what a parse into `JSONValue`
    /// and ``JSONValueDecoder`` did in 3.4 s for a snapshot that keeps 100 000 trace events (in
    /// a debug build): the restart's cost. Unknown members are ignored, as in every snapshot.
    static func decodeSnapshot(_ data: Data) throws -> DeviceSnapshot {
        try JSONDecoder().decode(DeviceSnapshot.self, from: data)
    }

    private func readSnapshot(_ name: String, generation: Int) throws -> DeviceSnapshot {
        let path = snapshotPath(name, generation: generation)
        let snapshot: DeviceSnapshot
        do {
            snapshot = try Self.decodeSnapshot(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw moveAside(path, "it does not decode (\(error))")
        }
        guard snapshot.name == name else { throw moveAside(path, "it names device \"\(snapshot.name)\"") }
        return snapshot
    }

    /// The header and entries of `<name>.journal`. A torn last line (no newline after it: a crash
    /// mid-write) is cut off the file; a whole line that does not read ends the journal there
    /// (the file is kept aside whole, and cut back to the lines before it: ``JournalScan``).
    private func readJournal(_ name: String) throws -> (JournalHeader, JournalLines) {
        let path = journalPath(name)
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw moveAside(path, "it cannot be read (\(error))")
        }
        let journal = ParsedJournal(data)
        guard let header = journal.header else { throw moveAside(path, "its first line is not a journal header") }
        journal.scan.repair(path, subject: "device \(name)", restored: "the device", log: log)
        return (header, journal.lines)
    }

    /// The requests device `name` received since it was created, as its journal holds them, read
    /// without touching its files (what a recording starts from, ``SessionRecording``); nil when
    /// the journal continues a snapshot, its first requests compacted away. Throws when the
    /// journal cannot be read whole.
    func history(of name: String) throws -> (creation: DeviceCreation, requests: JournalLines)? {
        let path = journalPath(name)
        let journal = ParsedJournal(try Data(contentsOf: URL(fileURLWithPath: path)))
        guard let header = journal.header else { throw StoreError.unreadable("\(path): its first line is not a journal header") }
        if let stop = journal.stop { throw StoreError.unreadable("\(path): line \(stop.line) is unreadable") }
        guard case .created(let creation) = header.base else { return nil }
        return (creation, journal.lines)
    }

    /// A journal's bytes, read: its header (nil when the first line is none), and the whole
    /// lines after it that read, up to the first that does not (``JournalScan``).
    struct ParsedJournal {
        var header: JournalHeader?
        var lines = JournalLines.none
        let scan: JournalScan
        /// The first line that did not read, if any.
        var stop: JournalScan.Stop? { scan.stop }

        init(_ data: Data) {
            var header: JournalHeader?
            scan = JournalScan(data) { number, line in
                guard number > 1 else {
                    header = try? JSONValueDecoder(unknownMembers: .ignore).decode(JournalHeader.self, from: JSONValue(parsing: line))
                    return header != nil
                }
                return JournalLines.decode(line) != nil
            }
            self.header = header
            if header != nil { lines = JournalLines(data: data, ranges: Array(scan.ranges.dropFirst())) }
        }
    }

    /// Renames `path` to `<path>.corrupt-<unix time>` and returns the error to report.
    private func moveAside(_ path: String, _ why: String) -> StoreError {
        let aside = path + ".corrupt-\(Int(Date().timeIntervalSince1970))"
        rename(path, aside)
        return StoreError.unreadable("\(path) was moved aside to \(aside): \(why)")
    }

    /// Moves every file of device `name` aside (`.corrupt-<unix time>`); returns where they went.
    @discardableResult
    func moveAside(_ name: String) -> [String] {
        ([journalPath(name)] + snapshotGenerations(name).map { snapshotPath(name, generation: $0) }).filter { FileManager.default.fileExists(atPath: $0) }.map { path in
            let aside = path + ".corrupt-\(Int(Date().timeIntervalSince1970))"
            rename(path, aside)
            return aside
        }
    }

    // MARK: - Writing

    /// Starts the journal of a new device; any old files of that name are replaced.
    func create(_ creation: DeviceCreation) throws -> DeviceJournal {
        deleteSnapshots(creation.name)
        return try startJournal(creation.name, header: JournalHeader(base: .created(creation)))
    }

    /// Starts the journal of a device a replay left standing (``ReplayOrigin``); any old files
    /// of that name are replaced.
    func create(replayed origin: ReplayOrigin) throws -> DeviceJournal {
        deleteSnapshots(origin.name)
        return try startJournal(origin.name, header: JournalHeader(base: .replayed(origin)))
    }

    /// Opens the journal of a device loaded by ``loadAll()`` for appending.
    func openJournal(_ name: String) throws -> DeviceJournal {
        try DeviceJournal(
            path: journalPath(name), syncs: syncs, syncsWithin: syncsWithin, syncThreads: syncThreads, descriptors: descriptors,
            log: log)
    }

    /// Compaction: writes `snapshot` (its encoded bytes) as generation `generation`, replaces
    /// the journal with one that continues from it, then deletes older snapshots. A crash before
    /// the journal is replaced leaves the old journal and the snapshot it names, both whole.
    func compact(_ snapshot: [UInt8], of name: String, sequence: Int, generation: Int) throws -> DeviceJournal {
        try writeAtomically(snapshotPath(name, generation: generation), snapshot)
        let journal = try startJournal(name, header: JournalHeader(base: .snapshot(generation: generation, sequence: sequence)))
        deleteSnapshots(name, except: generation)
        return journal
    }

    /// Removes a device's files.
    func remove(_ name: String) {
        unlink(journalPath(name))
        deleteSnapshots(name)
        syncDirectory()
    }

    private func startJournal(_ name: String, header: JournalHeader) throws -> DeviceJournal {
        var line = try JSONWire.bytes(header)
        line.append(UInt8(ascii: "\n"))
        try writeAtomically(journalPath(name), line)
        return try openJournal(name)
    }

    private func writeAtomically(_ path: String, _ bytes: [UInt8]) throws {
        try AtomicFile.replace(path, with: bytes, in: directory.path)
    }

    private func syncDirectory() {
        AtomicFile.syncDirectory(directory.path)
    }

    enum StoreError: Error, CustomStringConvertible {
        case io(String, Int32)
        case unreadable(String)

        var description: String {
            switch self {
            case .io(let what, let code): "\(what): \(String(cString: strerror(code)))"
            case .unreadable(let why): why
            }
        }
    }
}
