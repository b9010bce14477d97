/// A world's clock: virtual time and the timers due on it.
///
/// Time moves only when the world advances it (``World/advance(to:)``), firing due timers in
/// deadline order (ties in the order they were scheduled). Wall mode is a driver that calls
/// advance with real elapsed time; the logic is the same in both modes.
///
/// World-confined: touched only from the world's run loop, hence `@unchecked Sendable`.
// unchecked: world-confined: touched only on the world's run loop (checked on entry to it)
public final class VirtualClock: @unchecked Sendable {
    /// Identifies a scheduled timer, for ``cancel(_:)``.
    public struct TimerID: Hashable, Sendable {
        fileprivate let sequence: Int
    }

    struct Timer {
        let id: TimerID
        let deadline: VirtualInstant
        let label: String
        let action: @Sendable () async -> Void
    }

    /// Setting or cancelling a timer, in a step's ``Footprint``: the order of timers due at one
    /// instant is the order their tasks start in. (`now` moves only while the world is idle,
    /// between steps, so reading it is no access.)
    static let timersAccess = Access("VirtualClock timers", writes: true)

    public private(set) var now: VirtualInstant
    private var timers: [Timer] = []
    private var nextSequence = 0
    /// Set by ``close()``: the clock takes no more timers.
    private var closed = false

    public init(now: VirtualInstant = .epoch) {
        self.now = now
    }

    /// Schedules `action` to run in a fresh world task at `deadline` (at once on the next
    /// advance if the deadline is not after now).
    @discardableResult
    public func schedule(at deadline: VirtualInstant, label: String, action: @escaping @Sendable () async -> Void)
        -> TimerID
    {
        Scheduler.note(Self.timersAccess)
        nextSequence += 1
        guard !closed else { return TimerID(sequence: nextSequence) }
        let timer = Timer(id: TimerID(sequence: nextSequence), deadline: deadline, label: label, action: action)
        let index = timers.firstIndex { $0.deadline > deadline } ?? timers.endIndex
        timers.insert(timer, at: index)
        return timer.id
    }

    public func cancel(_ id: TimerID) {
        Scheduler.note(Self.timersAccess)
        timers.removeAll { $0.id == id }
    }

    /// Cancels every timer. Timers hold the actors that set them, and actors hold the world:
    /// a world being let go of drops them, so that the cycle does not keep it alive.
    public func cancelAll() {
        timers.removeAll()
    }

    /// Takes no more timers (``schedule(at:label:action:)`` sets none): a world being reclaimed
    /// fires the timers it has, and what they start must not set more, or it would never end.
    func close() {
        closed = true
    }

    /// The earliest pending deadline.
    public var nextDeadline: VirtualInstant? { timers.first?.deadline }

    /// Removes and returns the next timer due at or before `limit`, moving now to its deadline.
    func popDue(upTo limit: VirtualInstant) -> Timer? {
        guard let first = timers.first, first.deadline <= limit else { return nil }
        timers.removeFirst()
        if first.deadline > now { now = first.deadline }
        return first
    }

    /// Moves now forward to `instant` (never backward).
    func move(to instant: VirtualInstant) {
        if instant > now { now = instant }
    }
}
