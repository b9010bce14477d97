/// How far an exploration has got: what `scenario.progress` notifications carry.
public struct ExplorationProgress: Sendable, Equatable {
    /// Schedules run, and how many of them failed.
    public let done: Int
    public let failed: Int
    /// Of the schedules asked for (this shard's), how many from the first have all run: with
    /// several jobs, schedules end out of order, so `done` may count some beyond a gap. An
    /// exploration that stops early is continued, leaving out no seed, from `seedStart +
    /// covered × n` with `schedules − covered × n` (n the shard count, 1 without a shard). Nil
    /// for `dfs`, whose schedules have no seeds.
    public let covered: Int?

    public init(done: Int, failed: Int, covered: Int?) {
        self.done = done
        self.failed = failed
        self.covered = covered
    }
}
