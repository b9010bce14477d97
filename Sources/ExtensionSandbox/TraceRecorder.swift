/// One recorded effect: when (virtual time), who (actor, sandbox) and what (`payload`).
public struct TraceEntry<Payload: Sendable>: Sendable {
    /// Position in the world's trace, from 1; stable across `trace.get` calls.
    public let sequence: Int
    public let time: VirtualInstant
    public let actor: String
    public let sandbox: String?
    public let payload: Payload

    public init(sequence: Int, time: VirtualInstant, actor: String, sandbox: String?, payload: Payload) {
        self.sequence = sequence
        self.time = time
        self.actor = actor
        self.sandbox = sandbox
        self.payload = payload
    }
}

/// The world's trace: every effect in the order it happened.
///
/// Keeps the most recent entries that fit both `capacity` (entries) and `byteCapacity` (bytes,
/// as `cost` estimates each entry): older ones are dropped, sequence numbers go on. So a
/// long-running daemon stays bounded whatever its devices trace — 700 writes of a 900 KB value
/// once kept 630 MB, where 100 000 entries could have held 90 GB. The newest entry is always
/// kept, however large. World-confined (`@unchecked Sendable`).
// unchecked: world-confined: appended to only on the world's run loop (checked on entry to it)
public final class TraceRecorder<Payload: Sendable>: @unchecked Sendable {
    public let capacity: Int
    public let byteCapacity: Int
    private let cost: @Sendable (Payload) -> Int
    private var entries: [TraceEntry<Payload>] = []
    /// The estimated bytes of each entry, parallel to `entries`.
    private var costs: [Int] = []
    private var head = 0
    /// The estimated bytes of the entries kept (from `head`), and of those dropped but not yet
    /// let go of (before `head`: they are let go of in batches, before they hold a quarter of
    /// `byteCapacity`).
    public private(set) var keptBytes = 0
    private var droppedBytes = 0
    public private(set) var lastSequence = 0

    /// The bytes an entry takes besides what its payload holds out of line: the entry itself in
    /// the trace's storage (its number, time, actor and sandbox names and the payload's inline
    /// part: for a device's `Effect`, the size of its largest case) and its estimate's slot.
    /// Counting less let a soak's 100 devices with a 256 KiB trace each hold ten times that.
    public static var entryOverhead: Int { MemoryLayout<TraceEntry<Payload>>.stride + MemoryLayout<Int>.stride }

    /// A recorder whose first entry will be `lastSequence + 1` (a device restored from a
    /// snapshot goes on numbering where it stopped). `cost` estimates a payload's bytes beyond
    /// ``entryOverhead`` (0 by default: then only `capacity` bounds the trace).
    public init(
        capacity: Int = 100_000, byteCapacity: Int = .max, lastSequence: Int = 0,
        cost: @escaping @Sendable (Payload) -> Int = { _ in 0 }
    ) {
        self.capacity = capacity
        self.byteCapacity = byteCapacity
        self.cost = cost
        self.lastSequence = lastSequence
    }

    /// Entries kept now.
    public var count: Int { entries.count - head }

    /// The entries the trace's storage has room for: what it holds in memory, kept or not.
    var storageCapacity: Int { entries.capacity }

    @discardableResult
    public func record(time: VirtualInstant, actor: String, sandbox: String?, payload: Payload) -> TraceEntry<Payload> {
        lastSequence += 1
        let entry = TraceEntry(sequence: lastSequence, time: time, actor: actor, sandbox: sandbox, payload: payload)
        let bytes = Self.entryOverhead + actor.utf8.count + (sandbox?.utf8.count ?? 0) + cost(payload)
        // Storage full while dropped entries still sit in it: let go of them rather than let the
        // append double it. With entries of uneven sizes the dropped ones may hold less than a
        // quarter of the bytes when the room runs out, and the storage grew to 2.5 times what
        // it keeps (issue 22's soak).
        if head > 0, entries.count == entries.capacity { letGoOfDropped() }
        entries.append(entry)
        costs.append(bytes)
        keptBytes += bytes
        while count > capacity || (keptBytes > byteCapacity && count > 1) {
            keptBytes -= costs[head]
            droppedBytes += costs[head]
            head += 1
        }
        if head > capacity / 2 || droppedBytes > byteCapacity / 4 {
            letGoOfDropped()
        }
        return entry
    }

    /// Lets go of the dropped entries before `head`, into storage with room for a quarter more
    /// than those kept: about as many as are dropped before the next time, so that a full trace's
    /// storage stays within 1.25 times its bytes instead of doubling when an append outgrows it.
    private func letGoOfDropped() {
        let room = count + count / 4 + 1
        var keptEntries: [TraceEntry<Payload>] = []
        keptEntries.reserveCapacity(room)
        keptEntries.append(contentsOf: entries[head...])
        var keptCosts: [Int] = []
        keptCosts.reserveCapacity(room)
        keptCosts.append(contentsOf: costs[head...])
        entries = keptEntries
        costs = keptCosts
        head = 0
        droppedBytes = 0
    }

    /// Fills an empty recorder with `entries` saved from another (a device restored from a
    /// snapshot), oldest first, as far as its bounds allow; numbering goes on after the last of
    /// them or after ``lastSequence``, whichever is later.
    public func load(_ saved: [TraceEntry<Payload>]) {
        precondition(count == 0, "a trace is loaded before anything is recorded")
        for entry in saved {
            let bytes = Self.entryOverhead + entry.actor.utf8.count + (entry.sandbox?.utf8.count ?? 0) + cost(entry.payload)
            entries.append(entry)
            costs.append(bytes)
            keptBytes += bytes
        }
        lastSequence = max(lastSequence, saved.last?.sequence ?? 0)
        while count > capacity || (keptBytes > byteCapacity && count > 1) {
            keptBytes -= costs[head]
            head += 1
        }
        letGoOfDropped()
    }

    /// Entries with a sequence number greater than `sequence`, oldest first.
    public func entries(after sequence: Int) -> ArraySlice<TraceEntry<Payload>> {
        let kept = entries[head...]
        guard let first = kept.first else { return kept }
        let offset = max(0, sequence - first.sequence + 1)
        return offset >= kept.count ? [] : kept.dropFirst(offset)
    }
}
