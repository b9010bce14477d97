/// An exploration's `coverage` (``InterleavingCoverage``; docs/scenarios.md, "Coverage").
public struct ExplorationCoverage: Sendable, Encodable, Equatable {
    /// Schedules counted.
    public let schedules: Int
    /// Distinct interleavings (reads-from classes) among them.
    public let interleavings: Int
    /// Interleavings seen in exactly one schedule.
    public let seenOnce: Int
    /// The last `recentSchedules` schedules (10% of them, at most 1,000), and how many
    /// interleavings were first seen there.
    public let recentSchedules: Int
    public let newInRecent: Int
    /// Good–Turing's estimate of the chance the next schedule shows an interleaving not seen
    /// yet: `seenOnce / schedules`. Near 0: more schedules of this kind find little new.
    public let newInterleavingChance: Double
}
