/// Whether anyone still wants the answer to a long request (a scenario): cancelled when its
/// caller's connection closes, when the daemon shuts down, or by `scenario.cancel`. Work checks
/// ``reason`` between schedules and steps; whoever holds a queued piece of it registers
/// ``onCancel(_:)`` to take it back at once.
final class RequestCancellation: Sendable {
    /// Why a request was cancelled, as an exploration's `stoppedBy` reports it.
    enum Reason: String, Sendable {
        /// Its caller went away, or asked for it (`scenario.cancel`).
        case cancelled
        /// The daemon is stopping.
        case shutdown
    }

    private struct State {
        var reason: Reason?
        var handlers: [@Sendable (Reason) -> Void] = []
    }

    private let state = Protected(State())

    /// Nil while the answer is still wanted.
    var reason: Reason? { state.withLock { $0.reason } }

    var isCancelled: Bool { reason != nil }

    /// Cancels, for `reason` (the first reason given stays); runs the handlers once.
    func cancel(_ reason: Reason) {
        let handlers = state.withLock { state -> [@Sendable (Reason) -> Void] in
            guard state.reason == nil else { return [] }
            state.reason = reason
            defer { state.handlers = [] }
            return state.handlers
        }
        for handler in handlers { handler(reason) }
    }

    /// Runs `handler` when the request is cancelled: at once if it already is.
    func onCancel(_ handler: @escaping @Sendable (Reason) -> Void) {
        let now = state.withLock { state -> Reason? in
            if let reason = state.reason { return reason }
            state.handlers.append(handler)
            return nil
        }
        if let now { handler(now) }
    }
}
