/// One operation of a failure's causal chain (``CausalChain``): `causalChain` in a failure.
public struct CausalLink: Sendable, Encodable, Equatable {
    /// What the operation did for the failure.
    public enum Role: String, Sendable, Encodable {
        /// A read the write after it was computed from.
        case read
        /// Another process's write that landed between a read and the write that lost it.
        case interleavedWrite = "interleaved write"
        /// The write that overwrote the interleaved write unseen.
        case losingWrite = "losing write"
        /// A write (or shield change) that produced what a failed `expect` or invariant checked.
        case lastWrite = "last write"
        /// A fault injected after those writes (a jetsam at the write that never came).
        case fault
    }

    public let seq: Int
    public let actor: String
    /// `read`, `write`, `remove`, `shield`, `clear shield` or `fault`.
    public let op: String
    /// `suite/key` for the App Group, the ManagedSettings store's name for a shield.
    public let key: String
    /// The value read or written, as compact JSON (a shield: its applications; a fault: its
    /// kind, `key` then being what it struck); nil for a removal, a cleared shield, or a read of
    /// a key nobody had written.
    public let value: String?
    public let role: Role

    /// `wallet.monitor read group.x/spent = 3 (seq 40)`.
    var text: String {
        if role == .fault { return "\(actor) FAULT \(value ?? "?") at \(key) (seq \(seq))" }
        let shown = value.map { " = \($0)" } ?? (op == "read" ? " (absent)" : "")
        return "\(actor) \(op) \(key)\(shown) (seq \(seq))"
    }
}
