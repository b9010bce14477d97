/// Whether anyone still wants the answer to a long request (a scenario): cancelled when its
/// caller's connection closes, when the daemon shuts down, or by `scenario.cancel`. Work checks
/// ``reason`` between schedules and steps; whoever holds a queued piece of it registers
/// ``onCancel(_:)`` to take it back at once, and ``forget(_:)``s it once the piece is done: a
/// handler usually holds the work, and the work the request's caller, and so this cancellation.
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
        var handlers: [Int: @Sendable (Reason) -> Void] = [:]
        var nextHandler = 0
    }

    /// A handler registered with ``onCancel(_:)``.
    struct Registration: Sendable {
        fileprivate let id: Int
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
            defer { state.handlers = [:] }
            return state.handlers.sorted { $0.key < $1.key }.map(\.value)
        }
        for handler in handlers { handler(reason) }
    }

    /// Runs `handler` when the request is cancelled: at once if it already is.
    @discardableResult
    func onCancel(_ handler: @escaping @Sendable (Reason) -> Void) -> Registration {
        let (registration, now) = state.withLock { state -> (Registration, Reason?) in
            state.nextHandler += 1
            let registration = Registration(id: state.nextHandler)
            if let reason = state.reason { return (registration, reason) }
            state.handlers[registration.id] = handler
            return (registration, nil)
        }
        if let now { handler(now) }
        return registration
    }

    /// Lets go of a handler whose work is done (it will not run).
    func forget(_ registration: Registration) {
        _ = state.withLock { $0.handlers.removeValue(forKey: registration.id) }
    }
}
