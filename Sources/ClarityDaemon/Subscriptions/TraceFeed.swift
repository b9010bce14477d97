import DeviceActors
@_spi(Host) import SimulatediOS

/// One device's trace as it grows, for the connections subscribed to it: after each piece of
/// work on the device's queue that may have traced something (a request, a wall-clock tick, a
/// compaction), ``publish(_:)`` offers every event since the last publication to each
/// subscription that wants its kind, encoded once.
///
/// A subscription registered between two publications gets the events of the second: what was
/// published before it came is not sent. When the device is removed (or closed for good) every
/// subscription is ended, and no new one is taken.
///
/// Thread-safe: published to on the device's queue, registered with from the event loops.
final class TraceFeed: Sendable {
    /// Why a feed ended, as a `trace.ended` notification names it.
    enum EndReason: String, Sendable {
        /// `device.remove`.
        case removed
        /// The device stopped serving: the daemon is stopping, or the device's files could not
        /// be written and it is closed until the daemon restarts.
        case closed
    }

    let device: String
    private let log: Logger
    private let state: Protected<State>

    private struct State {
        var subscriptions: [TraceSubscription] = []
        /// The sequence number of the last event published.
        var published: Int
        var ended = false
    }

    /// `published`: the device's last sequence number now; what came before is not offered.
    init(device: String, published: Int, log: Logger) {
        self.device = device
        self.log = log
        state = Protected(State(published: published))
    }

    /// Adds `subscription`; false once the feed has ended.
    func register(_ subscription: TraceSubscription) -> Bool {
        state.withLock { state in
            guard !state.ended else { return false }
            state.subscriptions.append(subscription)
            return true
        }
    }

    func unregister(_ subscription: TraceSubscription) {
        state.withLock { $0.subscriptions.removeAll { $0 === subscription } }
    }

    /// What was traced up to `sequence` is not offered (a device just made or restored: its
    /// subscribers get what it traces from now on). On the device's queue.
    func skip(to sequence: Int) {
        state.withLock { $0.published = sequence }
    }

    /// Offers the events `device` traced since the last publication. On the device's queue.
    func publish(_ device: SimulatedDevice) {
        let last = device.mark.sequence
        let (subscriptions, from) = state.withLock { state -> ([TraceSubscription], Int) in
            // A device rebuilt after a failed write numbers on from what was saved.
            let from = min(state.published, last)
            state.published = last
            return (state.ended ? [] : state.subscriptions, from)
        }
        guard !subscriptions.isEmpty, last > from else { return }
        let effects = device.traceEntries(since: from, limit: nil)
        let firstKept = effects.first?.entry.sequence ?? last + 1
        if firstKept > from + 1 {
            for subscription in subscriptions {
                subscription.noteMissing(from: from + 1, to: firstKept - 1, count: firstKept - 1 - from)
            }
        }
        for effect in effects {
            let takers = subscriptions.filter { $0.wants(effect.entry.payload.kind) }
            guard !takers.isEmpty else { continue }
            let line: [UInt8]
            do {
                line = try NotificationLine.trace(effect, device: self.device)
            } catch {
                log.error("device \(self.device): trace event \(effect.entry.sequence) could not be encoded: \(error)")
                continue
            }
            for subscription in takers { subscription.offer(line, sequence: effect.entry.sequence) }
        }
    }

    /// Ends every subscription, for `reason`, and takes no new one.
    func end(_ reason: EndReason) {
        let subscriptions = state.withLock { state -> [TraceSubscription] in
            state.ended = true
            defer { state.subscriptions = [] }
            return state.subscriptions
        }
        for subscription in subscriptions { subscription.end(reason) }
    }
}
