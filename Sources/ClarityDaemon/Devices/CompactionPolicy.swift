/// When a device's journal is compacted into a snapshot (docs/decisions.md, Persistence): after
/// ``lines`` journal lines (`compactJournalAfter`, 0: never), or once a restart would run more
/// than ``replaySteps`` scheduler steps to replay it (`maxReplaySteps`, 0: never). The steps are
/// counted as the requests run (and as a wall device catches up), so the bound holds whatever
/// was simulated: 66 one-year `clock.advance`s of a device with a repeating activity journal in
/// 10 KB, yet took 25 s to replay.
struct CompactionPolicy: Sendable, Equatable {
    var lines: Int
    var replaySteps: Int

    func isDue(lines count: Int, steps: Int) -> Bool {
        (lines > 0 && count >= lines) || (replaySteps > 0 && steps > replaySteps)
    }

    /// After a compaction failed: how much to count as done, so that it is tried again after
    /// half the bound more.
    func retryLater(lines count: Int, steps: Int) -> (lines: Int, steps: Int) {
        (lines > 0 ? lines / 2 : count, replaySteps > 0 ? replaySteps / 2 : steps)
    }
}
