import ExtensionSandbox
@_spi(Host) import SimulatediOS

/// Which write each traced read of an App Group key saw: a schedule's reads-from relation (the
/// equivalence of Chalupa et al., "Data-centric dynamic partial order reduction", POPL 2018).
/// Two schedules with the same relation are one interleaving as far as the app can tell: every
/// read saw the same write (docs/scenarios.md, "Coverage").
///
/// Names hold across schedules, where trace sequence numbers do not: a read is (actor, item, its
/// n-th read of that item by that actor), a write (actor, its n-th write of that item). The item
/// is `suite/key`; a removal is a write (of nothing).
///
/// The value a read saw is the one its trace entry carries (a scenario's schedule traces every
/// read with its value); else the last write of its item traced before it. The writer is always
/// that last write: exact unless `lateDefaultsPropagation` holds writes back. Reads of an item
/// nobody wrote in the run read its initial value (``Write/initial``).
public struct ReadsFrom: Sendable {
    /// A write, named across schedules; ``initial`` is the value the item had before the run.
    public struct Write: Hashable, Sendable {
        public let actor: String
        /// 1 for the actor's first write of the item; 0 for ``initial``.
        public let nth: Int

        public static let initial = Write(actor: "", nth: 0)
    }

    /// A read, named across schedules.
    public struct ReadName: Hashable, Sendable {
        public let actor: String
        public let item: String
        /// 1 for the actor's first read of the item.
        public let nth: Int
    }

    /// One read in this run: its name and seq, what it saw, and which write that was (with the
    /// write's seq, nil for the initial value).
    public struct Read: Sendable {
        public let name: ReadName
        public let seq: Int
        public let value: StoredValue?
        public let writer: Write
        public let writerSeq: Int?
    }

    /// One write in this run, in trace order.
    public struct WriteEvent: Sendable {
        public let name: Write
        public let item: String
        public let seq: Int
        /// nil for a removal.
        public let value: StoredValue?
    }

    /// What an actor's reads or writes are counted by.
    private struct ActorItem: Hashable {
        let actor: String
        let item: String
    }

    public let reads: [Read]
    public let writes: [WriteEvent]

    /// The relation of a run's trace, oldest entry first.
    public init(_ entries: some Sequence<TraceEntry<Effect>>) {
        var reads: [Read] = []
        var writes: [WriteEvent] = []
        var last: [String: WriteEvent] = [:]
        var readCounts: [ActorItem: Int] = [:]
        var writeCounts: [ActorItem: Int] = [:]
        for entry in entries {
            switch entry.payload {
            case .storeRead(let suite, let key, _, let traced):
                let item = suite + "/" + key
                let nth = readCounts[ActorItem(actor: entry.actor, item: item), default: 0] + 1
                readCounts[ActorItem(actor: entry.actor, item: item)] = nth
                let seen = last[item]
                reads.append(
                    Read(
                        name: ReadName(actor: entry.actor, item: item, nth: nth), seq: entry.sequence,
                        value: traced.map(\.storedValue) ?? seen?.value,
                        writer: seen?.name ?? .initial, writerSeq: seen?.seq))
            case .storeWrite(let suite, let key, _), .storeRemove(let suite, let key):
                let item = suite + "/" + key
                let nth = writeCounts[ActorItem(actor: entry.actor, item: item), default: 0] + 1
                writeCounts[ActorItem(actor: entry.actor, item: item)] = nth
                var value: StoredValue?
                if case .storeWrite(_, _, let written) = entry.payload { value = written }
                let write = WriteEvent(name: Write(actor: entry.actor, nth: nth), item: item, seq: entry.sequence, value: value)
                writes.append(write)
                last[item] = write
            default: continue
            }
        }
        self.reads = reads
        self.writes = writes
    }

    /// The relation of a run (empty when it made no device).
    public init(_ outcome: ScenarioOutcome) {
        self.init(outcome.device?.trace.recorder.entries(after: 0) ?? [])
    }

    /// The relation as one number (FNV-1a over every read's name and writer, in a fixed order,
    /// then each key's writes in the order they were traced — its coherence order): equal for
    /// two runs whose every read saw the same write and whose writes of each key came in the
    /// same order. What coverage counts. (The order of writes counts too because reads are
    /// traced only in extensions, and in the main app with the race detector on: without them,
    /// two processes' writes of one key in either order are two interleavings all the same.)
    public var classHash: UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ text: String) {
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x100_0000_01b3
            }
            hash ^= 0xff
            hash &*= 0x100_0000_01b3
        }
        for read in reads.sorted(by: { ($0.name.actor, $0.name.item, $0.name.nth) < ($1.name.actor, $1.name.item, $1.name.nth) }) {
            mix(read.name.actor)
            mix(read.name.item)
            mix(String(read.name.nth))
            mix(read.writer.actor)
            mix(String(read.writer.nth))
        }
        for (item, writes) in Dictionary(grouping: writes, by: \.item).sorted(by: { $0.key < $1.key }) {
            mix(item)
            for write in writes {
                mix(write.name.actor)
                mix(String(write.name.nth))
            }
        }
        return hash
    }

    /// The reads whose writer differs in `other` (the sequential run), and the reads only one
    /// of the two made, in this run's order.
    public func difference(from other: ReadsFrom) -> [ReadsFromChange] {
        let theirs = Dictionary(other.reads.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let mine = Set(reads.map(\.name))
        var changes: [ReadsFromChange] = []
        for read in reads {
            let sequential = theirs[read.name]
            guard sequential?.writer != read.writer else { continue }
            changes.append(ReadsFromChange(read: read, sequential: sequential))
        }
        for read in other.reads where !mine.contains(read.name) {
            changes.append(ReadsFromChange(missing: read))
        }
        return changes
    }
}
