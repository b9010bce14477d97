import DeviceActors
import Foundation
@_spi(Host) import SimulatediOS

/// A server instance read back from its files at a start (``ServerStore``): a base — a snapshot, or
/// the creation its first journal starts with — and every journal from the base's generation
/// on, applied in order up to the first line that does not read or cannot apply.
///
/// `<name>.json` and its journal are tried first; when they do not read to the end of the
/// last journal, the snapshot before and the creation are tried too, and the base whose
/// journals reach furthest is taken (a snapshot that reads but is wrong stops its journal at an
/// operation that cannot apply; the one before it goes on). Then, as for a device's journal
/// (``JournalScan``), the line where the replay stopped is reported and cut off, so that
/// nothing is ever appended after it. Files that cannot be read or are not used are moved
/// aside and logged at error, never deleted or written over.
struct ServerRestore {
    let host: ServerHost
    let files: ServerStore.Generation

    /// The backend `name` from `found`, its files; nil, its journals moved aside, when no base reads.
    init?(_ name: String, _ found: ServerFiles.Found, in directory: ServerFiles, log: Logger) {
        let subject = directory.subject(name)
        var bases = Bases(name: name, found: found, directory: directory, log: log)
        var best: Replay?
        while let base = bases.next() {
            let replay = Replay(base, found: found, name: name, in: directory)
            if best.map({ replay.beats($0) }) ?? true { best = replay }
            if replay.isWhole { break }
        }
        guard let best else {
            let aside = found.journals.sorted().map { directory.moveAside(directory.journal(name, $0)) }
            log.error(
                "\(subject) could not be restored: no snapshot reads and no journal starts at its creation"
                    + (aside.isEmpty ? "" : "; its journals are moved aside: \(aside.joined(separator: ", "))"))
            return nil
        }
        let base = best.base
        for unused in bases.read where unused.file != base.file && (unused.isCurrent || unused.generation > base.generation) {
            let why = found.journals.contains(unused.generation) ? "\(base.file) and the journals after it reach further" : "its journal is missing"
            log.error("\(subject): \(unused.file) is not used (\(why)); moved aside to \(directory.moveAside(unused.file))")
        }
        var files = ServerStore.Generation(
            journal: best.replayed.last ?? base.generation, lines: best.lines, bytes: best.bytes, snapshotBytes: base.bytes,
            snapshot: base.isCurrent ? base.generation : nil, rebuiltFrom: base.generation)
        switch best.stop {
        case nil: break
        case .missing(let path):
            log.error("\(subject): \(path) is missing or cannot be read; the backend is restored without it")
        case .line(let path, let scan):
            if !scan.repair(path, subject: subject, restored: "the backend", log: log) { files.journalIsSealed = true }
        }
        let unread = found.journals.filter { $0 > (best.replayed.last ?? base.generation - 1) }.sorted()
        if !unread.isEmpty {
            let aside = unread.map { directory.moveAside(directory.journal(name, $0)) }
            log.error("\(subject): journals not replayed (they continue what could not be read), moved aside: \(aside.joined(separator: ", "))")
        }
        if !base.isCurrent { log.error("\(subject): rebuilt from \(base.file) and the journals after it") }
        // Rebuilt from anything but `<name>.json` and the one journal after it: snapshotted at
        // once, so that the backend is again one snapshot that reads and its journal.
        files.mustCompact = !base.isCurrent || best.replayed != [base.generation]
        host = best.isWhole ? best.host : best.replayedAgainUpToTheStop(name: name, in: directory)
        self.files = files
    }

    /// A base the backend can be rebuilt from.
    struct Base {
        var stored: StoredServer
        var bytes: Int
        /// The file it was read from.
        var file: String
        /// Whether it is `<name>.json`.
        var isCurrent: Bool
        var generation: Int { stored.journal ?? 0 }
    }

    /// The backend's bases, read as they are asked for: `<name>.json`, the previous snapshots
    /// by the generation in their names, newest first, then the creation journal 0 starts
    /// with. A snapshot that does not read is moved aside (logged) and passed over.
    struct Bases {
        let name: String
        let found: ServerFiles.Found
        let directory: ServerFiles
        let log: Logger
        /// The snapshots read so far.
        private(set) var read: [Base] = []
        private var previous: [Int]
        private var askedForCurrent = false
        private var askedForCreation = false

        init(name: String, found: ServerFiles.Found, directory: ServerFiles, log: Logger) {
            self.name = name
            self.found = found
            self.directory = directory
            self.log = log
            previous = found.previousSnapshots.sorted()
        }

        mutating func next() -> Base? {
            if !askedForCurrent {
                askedForCurrent = true
                if found.hasSnapshot, let current = snapshot(directory.snapshot(name), generation: nil) { return current }
                if !found.hasSnapshot { log.error("\(directory.subject(name)): \(directory.snapshot(name)) is missing; rebuilding it from the files before it") }
            }
            while let generation = previous.popLast() {
                if let base = snapshot(directory.previousSnapshot(name, generation), generation: generation) { return base }
            }
            guard !askedForCreation else { return nil }
            askedForCreation = true
            return creation()
        }

        /// The snapshot at `file` if it reads, names this backend and (for a previous snapshot)
        /// the generation in its file name; else nil, the file moved aside and why logged.
        private mutating func snapshot(_ file: String, generation: Int?) -> Base? {
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: file))
                let stored = try StoredServer.decode(data, of: directory.registration)
                guard stored.name == name else { throw ServerStore.Damage("it names \(directory.subject(stored.name))") }
                if let generation, (stored.journal ?? 0) != generation {
                    throw ServerStore.Damage("it names journal generation \(stored.journal ?? 0), not \(generation)")
                }
                let base = Base(stored: stored, bytes: data.count, file: file, isCurrent: generation == nil)
                read.append(base)
                return base
            } catch {
                log.error("\(directory.subject(name)): \(file) could not be read (\(error)); moved aside to \(directory.moveAside(file))")
                return nil
            }
        }

        /// The backend as made, when journal 0 starts with its creation at a time a backend can have.
        private func creation() -> Base? {
            let first = directory.journal(name, 0)
            guard found.journals.contains(0), let data = FileManager.default.contents(atPath: first),
                let line = data.split(separator: UInt8(ascii: "\n"), maxSplits: 1).first,
                case .created(let now)? = try? JSONDecoder().decode(ServerOperation.self, from: line),
                directory.registration.kind.times.contains(now),
                case let stored = StoredServer.created(directory.registration, name: name, now: now, journal: 0)
            else { return nil }
            return Base(stored: stored, bytes: 0, file: first, isCurrent: false)
        }
    }

    /// The journals from a base on applied to a backend restored from it, without touching a
    /// file: how far they read.
    struct Replay {
        /// Where the replay stopped before the end of the last journal.
        enum Stop {
            /// A journal that is missing or cannot be read.
            case missing(String)
            /// A line that does not read or cannot apply (a torn last line included).
            case line(String, JournalScan)
        }

        let base: Base
        let host: ServerHost
        /// The generations of the journals read, whole or in part.
        private(set) var replayed: [Int] = []
        /// The lines and bytes read of the last of them.
        private(set) var lines = 0
        private(set) var bytes = 0
        private(set) var stop: Stop?
        /// Whether it reached the end of the last journal there is (a torn last line aside).
        private(set) var isWhole = true

        init(_ base: Base, found: ServerFiles.Found, name: String, in directory: ServerFiles) {
            self.base = base
            host = ServerHost(directory.registration, restoring: base.stored)
            let last = max(base.generation, found.journals.max() ?? base.generation)
            for generation in base.generation...last {
                let path = directory.journal(name, generation)
                guard found.journals.contains(generation), let data = FileManager.default.contents(atPath: path) else {
                    stop = .missing(path)
                    break
                }
                let scan = ServerStore.replay(data, on: host)
                replayed.append(generation)
                lines = scan.ranges.count
                bytes = scan.goodLength
                if let end = scan.stop {
                    stop = .line(path, scan)
                    isWhole = generation == last && !end.complete
                    break
                }
            }
            if case .missing? = stop { isWhole = false }
        }

        /// How good a rebuild it is, compared in order: whether the base's own journal is there
        /// (a snapshot without it may name a generation wrongly), how far into the journals it
        /// read (their generation, then lines), how new the base is.
        private var rank: (Int, Int, Int, Int) {
            (replayed.first == base.generation ? 1 : 0, replayed.last ?? base.generation, lines, base.generation)
        }

        func beats(_ other: Replay) -> Bool { rank > other.rank }

        /// The backend from the base and the lines read before the stop, applied again: a line
        /// that could not apply may have changed the backend (a request answered otherwise).
        func replayedAgainUpToTheStop(name: String, in directory: ServerFiles) -> ServerHost {
            let host = ServerHost(directory.registration, restoring: base.stored)
            for generation in replayed {
                guard let data = FileManager.default.contents(atPath: directory.journal(name, generation)) else { break }
                _ = ServerStore.replay(generation == replayed.last ? data.prefix(bytes) : data, on: host)
            }
            return host
        }
    }
}
