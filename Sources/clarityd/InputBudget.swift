/// The bytes all connections hold of request lines received and not yet answered — mostly
/// unfinished lines — against one cap, so that many clients each sending part of a long line
/// cannot together take the daemon's memory (docs/protocol.md, Transport and framing).
///
/// Each ``Connection`` charges what its ``LineBuffer`` holds after every read and gives it back as
/// the lines are answered and when it closes; a connection whose charge would take the total
/// past ``limit`` is refused (-32004) and closed. Shared by every event loop, under a lock.
final class InputBudget: Sendable {
    /// The cap on bytes held for unfinished request lines across all connections: 64 MiB, room
    /// for 64 clients each halfway through a line of the default limit (1 MiB) — far more than
    /// local clients sending whole lines ever hold — while a few hundred stalled clients can no
    /// longer hold a gigabyte.
    static let defaultLimit = 64 * 1024 * 1024

    /// The cap in force: ``defaultLimit``, or more when the line limit is so large that one
    /// client alone could not otherwise send a whole line (one line plus one read).
    let limit: Int
    private let charged = Protected(0)

    init(maxLineBytes: Int, readSize: Int = EventLoop.readSize) {
        limit = max(Self.defaultLimit, maxLineBytes + readSize)
    }

    /// Bytes charged now, by all connections.
    var total: Int { charged.withLock { $0 } }

    /// Moves a connection's charge from `old` to `new` bytes. Growing past ``limit`` is refused
    /// (the charge stays `old`); shrinking always succeeds.
    func recharge(from old: Int, to new: Int) -> Bool {
        charged.withLock { total in
            if new > old, total - old + new > limit { return false }
            total += new - old
            return true
        }
    }
}
