/// A lost update in an App Group suite, found by the race detector (config `raceDetector`) and
/// traced as a `race` effect whose actor is the process that lost the other's update
/// (docs/platform.md, Race detector).
///
/// The story it tells, in trace order: the writer read ``key`` (``readSeq``), another process
/// wrote it (``otherWriteSeq``, by ``otherActor``), then the writer wrote it (``writeSeq``)
/// without having read it again, so the other process's value was overwritten unseen.
public struct LostUpdate: Sendable, Equatable {
    public let suite: String
    public let key: String
    /// The writer's last `store.read` of the key before its write.
    public let readSeq: Int
    /// Who wrote the value that was lost: an app's process (`dailylimit.monitor`), `outside` or `system`.
    public let otherActor: String
    /// That process's `store.write` or `store.remove`.
    public let otherWriteSeq: Int
    /// The writer's `store.write` or `store.remove` that overwrote it.
    public let writeSeq: Int

    /// A lost update as a test lists it among a step's expected effects (`.race(LostUpdate(…))`).
    public init(suite: String, key: String, readSeq: Int, otherActor: String, otherWriteSeq: Int, writeSeq: Int) {
        self.suite = suite
        self.key = key
        self.readSeq = readSeq
        self.otherActor = otherActor
        self.otherWriteSeq = otherWriteSeq
        self.writeSeq = writeSeq
    }
}
