/// Bytes that all connections together hold of one kind — request lines received and not yet
/// answered, or answers not yet sent — against one cap, so that many clients cannot together
/// take the daemon's memory where each alone is bounded (docs/protocol.md, Transport and
/// framing). ``ConnectionRegistry`` keeps one for input and one for output.
///
/// Each ``Connection`` moves its charge as its buffers grow and shrink, and gives it back when
/// it closes. Shared by every event loop, under a lock.
final class ByteBudget: Sendable {
    let limit: Int
    private let charged = Protected(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Bytes charged now, by all connections.
    var total: Int { charged.withLock { $0 } }

    /// Whether the connections hold more than ``limit`` now.
    var isExceeded: Bool { charged.withLock { $0 > limit } }

    /// Moves a connection's charge from `old` to `new` bytes, unless growing would take the
    /// total past ``limit``: then it refuses (false) and the charge stays `old`. Shrinking
    /// always succeeds.
    func recharge(from old: Int, to new: Int) -> Bool {
        charged.withLock { total in
            if new > old, total - old + new > limit { return false }
            total += new - old
            return true
        }
    }

    /// Moves a connection's charge from `old` to `new` bytes, whatever the total (for bytes
    /// already held, which ``isExceeded`` then reports).
    func charge(from old: Int, to new: Int) {
        guard new != old else { return }
        charged.withLock { $0 += new - old }
    }
}
