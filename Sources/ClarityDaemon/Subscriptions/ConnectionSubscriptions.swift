/// A connection's subscriptions, one per device (``TraceSubscription``): made and dropped by
/// `subscribe` and `unsubscribe` — on the connection's loop, or on a lane for a batch — and
/// drained by the connection into its output (``take(into:)``) once its client has read what
/// went before.
///
/// Thread-safe. Once the connection has closed, ``closeAll()`` has cancelled every subscription
/// and no new one is made.
final class ConnectionSubscriptions: Sendable {
    /// The daemon's cap on the answers clients have not read yet (an answer that would take them
    /// past it is withheld: `record.stop` checks before it lets go of a recording).
    let budget: ByteBudget
    private let state = Protected(State())

    private typealias Entry = (subscription: TraceSubscription, feed: TraceFeed)

    private struct State {
        var subscriptions: [String: Entry] = [:]
        var wake: (@Sendable () -> Void)?
        var closed = false
        /// The latest progress notification of a long call not yet sent (``post(progress:)``).
        var progress: [UInt8]?
    }

    /// `budget`: the daemon's cap on unsent output, which buffered notifications count against.
    init(budget: ByteBudget) {
        self.budget = budget
    }

    /// What asks the connection's loop to take lines; set before the connection takes requests.
    func setWake(_ wake: @escaping @Sendable () -> Void) {
        state.withLock { $0.wake = wake }
    }

    /// Subscribes to `feed`'s events of `kinds` (all when nil); a connection subscribed to that
    /// device already selects `kinds` from now on, keeping what it buffered. Nil when the
    /// connection has closed or the feed has ended (its device is gone).
    func subscribe(to feed: TraceFeed, kinds: [String]?) -> TraceSubscription? {
        state.withLock { state -> TraceSubscription? in
            guard !state.closed else { return nil }
            if let existing = state.subscriptions[feed.device], existing.feed === feed {
                existing.subscription.select(kinds: kinds)
                return existing.subscription
            }
            let wake = state.wake
            let subscription = TraceSubscription(device: feed.device, kinds: kinds, budget: budget) { wake?() }
            guard feed.register(subscription) else { return nil }
            if let replaced = state.subscriptions[feed.device] { Self.cancel(replaced) }
            state.subscriptions[feed.device] = (subscription, feed)
            return subscription
        }
    }

    /// Ends the subscription to `device`, or every one when nil; what they buffered is dropped.
    func unsubscribe(device: String?) {
        let removed = state.withLock { state -> [Entry] in
            guard let device else {
                defer { state.subscriptions = [:] }
                return Array(state.subscriptions.values)
            }
            return state.subscriptions.removeValue(forKey: device).map { [$0] } ?? []
        }
        removed.forEach(Self.cancel)
    }

    /// Whether the connection has closed: a long call of its own (an exploration) stops.
    var isClosed: Bool { state.withLock { $0.closed } }

    /// Queues `line`, a progress notification of a call this connection is waiting on; a newer
    /// one replaces it if it was not sent yet, so a slow reader gets the latest, never a backlog.
    func post(progress line: [UInt8]) {
        let wake = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.closed else { return nil }
            state.progress = line
            return state.wake
        }
        wake?()
    }

    /// Appends the pending progress line, then every line the subscriptions buffered, device by
    /// device in name order, to `output`; forgets the subscriptions that ended. True when it
    /// appended anything.
    func take(into output: inout [UInt8]) -> Bool {
        // Called after every answer the connection sends once a subscription has woken it: for
        // a connection whose subscriptions have nothing buffered, one lock and no allocation.
        let taken = state.withLock { state -> (current: [(key: String, value: Entry)], progress: [UInt8]?)? in
            guard !state.subscriptions.isEmpty || state.progress != nil else { return nil }
            defer { state.progress = nil }
            return (state.subscriptions.sorted { $0.key < $1.key }, state.progress)
        }
        guard let (current, progress) = taken else { return false }
        let before = output.count
        if let progress { output.append(contentsOf: progress) }
        let ended = current.filter { $0.value.subscription.take(into: &output) }
        if !ended.isEmpty {
            state.withLock { state in
                for (device, entry) in ended where state.subscriptions[device]?.subscription === entry.subscription {
                    state.subscriptions[device] = nil
                }
            }
        }
        return output.count > before
    }

    /// The connection closed: cancels every subscription, and refuses new ones.
    func closeAll() {
        let all = state.withLock { state -> [Entry] in
            state.closed = true
            state.wake = nil
            defer { state.subscriptions = [:] }
            return Array(state.subscriptions.values)
        }
        all.forEach(Self.cancel)
    }

    private static func cancel(_ entry: Entry) {
        entry.feed.unregister(entry.subscription)
        entry.subscription.cancel()
    }
}
