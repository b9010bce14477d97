/// One recorded effect: when (virtual time), who (actor, sandbox) and what (`payload`).
public struct TraceEntry<Payload: Sendable>: Sendable {
    /// Position in the world's trace, from 1; stable across `trace.get` calls.
    public let sequence: Int
    public let time: VirtualInstant
    public let actor: String
    public let sandbox: String?
    public let payload: Payload
}

/// The world's trace: every effect in the order it happened.
///
/// Keeps the most recent `capacity` entries (older ones are dropped; sequence numbers go on),
/// so a long-running daemon stays bounded. World-confined (`@unchecked Sendable`).
public final class TraceRecorder<Payload: Sendable>: @unchecked Sendable {
    public let capacity: Int
    private var entries: [TraceEntry<Payload>] = []
    private var head = 0
    public private(set) var lastSequence = 0

    /// A recorder whose first entry will be `lastSequence + 1` (a device restored from a
    /// snapshot goes on numbering where it stopped).
    public init(capacity: Int = 100_000, lastSequence: Int = 0) {
        self.capacity = capacity
        self.lastSequence = lastSequence
    }

    @discardableResult
    public func record(time: VirtualInstant, actor: String, sandbox: String?, payload: Payload) -> TraceEntry<Payload> {
        lastSequence += 1
        let entry = TraceEntry(sequence: lastSequence, time: time, actor: actor, sandbox: sandbox, payload: payload)
        entries.append(entry)
        if entries.count - head > capacity {
            head += 1
            if head > capacity {
                entries.removeFirst(head)
                head = 0
            }
        }
        return entry
    }

    /// Entries with a sequence number greater than `sequence`, oldest first.
    public func entries(after sequence: Int) -> ArraySlice<TraceEntry<Payload>> {
        let kept = entries[head...]
        guard let first = kept.first else { return kept }
        let offset = max(0, sequence - first.sequence + 1)
        return offset >= kept.count ? [] : kept.dropFirst(offset)
    }
}
