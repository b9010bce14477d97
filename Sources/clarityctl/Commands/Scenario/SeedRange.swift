/// The seeds of an exploration's schedules, as `explore` asked for them: schedule `i` runs seed
/// `seedStart + i`, and a shard `i/n` runs every n-th schedule from the i-th. The daemon reports
/// how many of the shard's schedules, from its first, have all run (`covered`); this says which
/// seeds those are, and where an exploration stopped early goes on without leaving one out.
struct SeedRange: Equatable {
    let seedStart: Int
    /// Schedules asked for, every shard's together (`--schedules`).
    let schedules: Int
    let shardIndex: Int
    let shardCount: Int

    init(seedStart: Int = 0, schedules: Int, shardIndex: Int = 0, shardCount: Int = 1) {
        self.seedStart = seedStart
        self.schedules = schedules
        self.shardIndex = shardIndex
        self.shardCount = shardCount
    }

    /// How many schedules the shard runs.
    var count: Int { schedules > shardIndex ? (schedules - shardIndex + shardCount - 1) / shardCount : 0 }

    /// `0–409`, or with a shard `1–28, one in 3`; nil when none is covered.
    func text(covered: Int) -> String? {
        guard covered > 0 else { return nil }
        let first = seedStart + shardIndex
        let last = first + (covered - 1) * shardCount
        let range = first == last ? "\(first)" : "\(first)–\(last)"
        return shardCount == 1 ? range : "\(range), one in \(shardCount)"
    }

    /// The `--seed-start` and `--schedules` that go on after `covered` schedules, with the same
    /// shard; nil when none is left.
    func resumption(afterCovered covered: Int) -> (seedStart: Int, schedules: Int)? {
        let done = covered * shardCount
        guard schedules - done > shardIndex else { return nil }
        return (seedStart + done, schedules - done)
    }
}
