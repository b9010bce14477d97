/// An outgoing call as `CXCallObserver` reports it (docs/platform.md): dialing
/// (T,F,F), connected (T,T,F), ended (T,T,T); unanswered (T,F,F) → (T,F,T).
public struct CallState: Sendable, Hashable, Codable {
    public var handle: String?
    public var isOutgoing: Bool
    public var hasConnected: Bool
    public var hasEnded: Bool
    /// Virtual time of the last transition, in seconds.
    public var since: Double

    public init(handle: String?, isOutgoing: Bool, hasConnected: Bool, hasEnded: Bool, since: Double) {
        self.handle = handle
        self.isOutgoing = isOutgoing
        self.hasConnected = hasConnected
        self.hasEnded = hasEnded
        self.since = since
    }
}
