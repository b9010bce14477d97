import Synchronization

/// Bytes that all connections together hold of one kind — request lines received and not yet
/// answered, or answers not yet sent — against one cap, so that many clients cannot together
/// take the daemon's memory where each alone is bounded (docs/protocol.md, Transport and
/// framing). ``ConnectionRegistry`` keeps one for input and one for output; the devices keep one
/// for the steps their recordings hold (``SessionRecording``, `maxRecordingBytes`).
///
/// Each ``Connection`` moves its charge as its buffers grow and shrink, and gives it back when
/// it closes. Shared by every event loop, as one atomic count: the output cap is read once a
/// request, and a lock there cost 3 % of the event loop's time under pings.
final class ByteBudget: Sendable {
    let limit: Int
    private let charged = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Bytes charged now, by all connections.
    var total: Int { charged.load(ordering: .relaxed) }

    /// Whether the connections hold more than ``limit`` now.
    var isExceeded: Bool { total > limit }

    /// Moves a connection's charge from `old` to `new` bytes, unless growing would take the
    /// total past ``limit``: then it refuses (false) and the charge stays `old`. Shrinking
    /// always succeeds.
    func recharge(from old: Int, to new: Int) -> Bool {
        guard new > old else {
            charge(from: old, to: new)
            return true
        }
        var total = charged.load(ordering: .relaxed)
        while true {
            if total - old + new > limit { return false }
            let (exchanged, found) = charged.compareExchange(expected: total, desired: total - old + new, ordering: .relaxed)
            if exchanged { return true }
            total = found
        }
    }

    /// Takes `bytes` more, unless that would take the total past ``limit`` (false: nothing taken).
    func take(_ bytes: Int) -> Bool {
        recharge(from: 0, to: bytes)
    }

    /// Gives back `bytes` taken.
    func give(_ bytes: Int) {
        charge(from: bytes, to: 0)
    }

    /// Moves a connection's charge from `old` to `new` bytes, whatever the total (for bytes
    /// already held, which ``isExceeded`` then reports).
    func charge(from old: Int, to new: Int) {
        guard new != old else { return }
        charged.wrappingAdd(new - old, ordering: .relaxed)
    }
}
