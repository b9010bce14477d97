/// One connection's subscription to one device's trace: the notification lines between the
/// device's queue, which offers each new event as it is traced (``TraceFeed``), and the
/// connection's event loop, which takes them once its client has read everything sent before
/// (``ConnectionSubscriptions``).
///
/// The buffer is bounded, so a client that reads slowly or not at all never holds up the
/// device or anyone else: it holds at most ``bufferLimit`` bytes of lines (one line however
/// long, when empty), and its bytes count against the daemon's cap on unsent output
/// (``ConnectionRegistry/maxUnsentOutputBytes``). An event that finds no room is dropped and
/// counted, and so is every later one until the connection has taken what the buffer holds:
/// then a `trace.dropped` notification, right after the last event delivered, tells how many
/// and which sequence numbers are missing (`trace.get` has them while the trace keeps them),
/// and events flow again.
///
/// Lines wait, and the connection is not woken, until ``activate()`` — once the client has the
/// answer to its `subscribe` — so that answer comes before the first notification.
///
/// Thread-safe: offered to on the device's queue, taken on the loop, ended from any thread.
final class TraceSubscription: Sendable {
    /// Bytes of lines a subscription holds at most (256 KiB, about 900 typical events): beyond
    /// what the socket and the connection's output already hold, which is where a reading
    /// client's events wait.
    static let bufferLimit = 256 * 1024

    let device: String
    private let budget: ByteBudget
    private let wake: @Sendable () -> Void
    private let state: Protected<State>

    private struct State {
        var kinds: [String]?
        var lines: [[UInt8]] = []
        var bytes = 0
        var active = false
        var wakeRequested = false
        /// Events dropped since the connection last took the buffer, and the first and last of
        /// their sequence numbers.
        var dropped = 0
        var droppedFrom = 0
        var droppedTo = 0
        var ended: TraceFeed.EndReason?
        var cancelled = false
    }

    /// `kinds`: only events of these kinds (a kind, or with a trailing `.` the kinds under it,
    /// as `trace.get` selects); all when nil. `wake` asks the connection's loop to take lines.
    init(device: String, kinds: [String]?, budget: ByteBudget, wake: @escaping @Sendable () -> Void) {
        self.device = device
        self.budget = budget
        self.wake = wake
        state = Protected(State(kinds: kinds))
    }

    /// Selects other kinds from now on (a second `subscribe` to the same device).
    func select(kinds: [String]?) {
        state.withLock { $0.kinds = kinds }
    }

    /// Whether events of `kind` are for this subscription.
    func wants(_ kind: String) -> Bool {
        state.withLock { state in
            guard !state.cancelled, state.ended == nil else { return false }
            guard let kinds = state.kinds else { return true }
            return kinds.contains { $0 == kind || ($0.hasSuffix(".") && kind.hasPrefix($0)) }
        }
    }

    /// Buffers the notification `line` of event `sequence`, or drops it (see the type's rules).
    func offer(_ line: [UInt8], sequence: Int) {
        let wakeNow = state.withLock { state -> Bool in
            guard !state.cancelled, state.ended == nil else { return false }
            let fits = state.lines.isEmpty || state.bytes + line.count <= Self.bufferLimit
            guard state.dropped == 0, fits, budget.recharge(from: state.bytes, to: state.bytes + line.count) else {
                Self.noteDropped(&state, from: sequence, to: sequence, count: 1)
                return false
            }
            state.lines.append(line)
            state.bytes += line.count
            return Self.requestWake(&state)
        }
        if wakeNow { wake() }
    }

    /// Counts `count` events `from` through `to` that never reached the subscription: the device's
    /// trace no longer held them when they were to be offered.
    func noteMissing(from: Int, to: Int, count: Int) {
        let wakeNow = state.withLock { state -> Bool in
            guard !state.cancelled, state.ended == nil else { return false }
            Self.noteDropped(&state, from: from, to: to, count: count)
            return Self.requestWake(&state)
        }
        if wakeNow { wake() }
    }

    /// The client has the answer to its `subscribe`: lines may go out from now on.
    func activate() {
        let wakeNow = state.withLock { state -> Bool in
            state.active = true
            return Self.requestWake(&state)
        }
        if wakeNow { wake() }
    }

    /// No more events will come; the connection is told why after the lines buffered.
    func end(_ reason: TraceFeed.EndReason) {
        let wakeNow = state.withLock { state -> Bool in
            guard !state.cancelled, state.ended == nil else { return false }
            state.ended = reason
            return Self.requestWake(&state)
        }
        if wakeNow { wake() }
    }

    /// Drops what the buffer holds and takes no more (`unsubscribe`, the connection closing).
    func cancel() {
        state.withLock { state in
            state.cancelled = true
            _ = budget.recharge(from: state.bytes, to: 0)
            state.lines = []
            state.bytes = 0
        }
    }

    /// Appends the lines buffered to `output`, then a `trace.dropped` notice if events were
    /// dropped, then a `trace.ended` one if the subscription ended. Returns whether it ended (the
    /// connection then forgets it). Nothing is taken before ``activate()``.
    func take(into output: inout [UInt8]) -> Bool {
        let (lines, dropped, ended) = state.withLock { state -> ([[UInt8]], (count: Int, from: Int, to: Int)?, TraceFeed.EndReason?) in
            state.wakeRequested = false
            guard state.active, !state.cancelled else { return ([], nil, nil) }
            let lines = state.lines
            _ = budget.recharge(from: state.bytes, to: 0)
            state.lines = []
            state.bytes = 0
            var dropped: (Int, Int, Int)?
            if state.dropped > 0 {
                dropped = (state.dropped, state.droppedFrom, state.droppedTo)
                state.dropped = 0
            }
            if state.ended != nil { state.cancelled = true }
            return (lines, dropped, state.ended)
        }
        for line in lines { output.append(contentsOf: line) }
        if let dropped, let line = try? NotificationLine.dropped(device: device, count: dropped.count, from: dropped.from, to: dropped.to) {
            output.append(contentsOf: line)
        }
        if let ended, let line = try? NotificationLine.ended(device: device, reason: ended) {
            output.append(contentsOf: line)
        }
        return ended != nil
    }

    private static func noteDropped(_ state: inout State, from: Int, to: Int, count: Int) {
        if state.dropped == 0 { state.droppedFrom = from }
        state.dropped += count
        state.droppedTo = to
    }

    /// Whether the connection must be woken now: the subscription is active and has not asked yet.
    private static func requestWake(_ state: inout State) -> Bool {
        guard state.active, !state.wakeRequested else { return false }
        state.wakeRequested = true
        return true
    }
}
