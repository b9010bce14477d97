/// One touch of shared state by a step of a world: what it touched and whether it changed it.
///
/// `object` names a piece of shared state (`actor clarity.app`, an App Group suite,
/// `VirtualClock timers`); `item` narrows it to a part (a key), nil for the whole object.
public struct Access: Hashable, Sendable {
    public let object: String
    public let item: String?
    public let writes: Bool

    public init(_ object: String, _ item: String? = nil, writes: Bool) {
        self.object = object
        self.item = item
        self.writes = writes
    }

    /// Whether two accesses may not be swapped: the same object, overlapping parts (the same
    /// item, or one of them the whole object), and at least one writes.
    public func conflicts(with other: Access) -> Bool {
        object == other.object && (writes || other.writes)
            && (item == nil || other.item == nil || item == other.item)
    }
}

/// What a *step* touched: everything run between one decision and the next (the picked task's
/// jobs, and any job that ran because no other task was ready). Recorded by the
/// ``Scheduler`` when its strategy asks for it (``SchedulingStrategy/usesFootprints``): every job
/// run on a world actor counts as a write to that actor's state, except on actors that describe
/// their own accesses more finely (``WorldActorExecutor/notesAccesses``: the App Group container,
/// by key), and shared non-actor state notes its touches itself (``Scheduler/note(_:)``: the
/// clock's timers, a sandbox's ledger).
///
/// Two steps whose footprints do not conflict commute: run in either order they leave the world
/// in the same state, which is what lets `dfs` run only one of the two orders (sleep sets).
/// The trace is history, not state: steps that only append to it still commute.
public struct Footprint: Sendable, Equatable {
    public private(set) var accesses: Set<Access> = []
    /// The tasks whose jobs ran in the step (recorded runs only): the picked one, and any task
    /// left the only one ready. A sleeper among them has taken its step, so it wakes
    /// (``Scheduler``'s run loop notes them).
    public private(set) var ran: Set<Int> = []

    public init(_ accesses: Set<Access> = []) {
        self.accesses = accesses
    }

    /// A job of `task` runs in this step.
    mutating func enter(_ task: Int) {
        ran.insert(task)
    }

    mutating func insert(_ access: Access) {
        accesses.insert(access)
    }

    /// Whether some access of one conflicts with some access of the other.
    public func conflicts(with other: Footprint) -> Bool {
        accesses.contains { mine in other.accesses.contains { mine.conflicts(with: $0) } }
    }
}
