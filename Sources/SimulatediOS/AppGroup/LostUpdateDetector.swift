import ExtensionSandbox

/// The App Group's race detector (config `raceDetector`, docs/platform.md): finds lost updates
/// across processes.
///
/// The rule: within one invocation (a callback of an extension, or one run of main-app code:
/// an intent, a timer, an observer, becoming active), process P reads key K; another process Q's
/// write (or removal) of K reaches the store; then the same invocation's write of K reaches the
/// store although it has not read K since. That write is a ``LostUpdate``: P overwrote a value it
/// never saw. One is reported per overwritten write.
///
/// - A read counts only for the invocation that made it (issue 18: a reset written by one intent
///   was reported against a read of an earlier, unrelated intent). A value an extension keeps in
///   memory from an earlier callback, or the main app from an earlier intent, is not followed.
/// - A process is an instance: an actor name and, for an extension, the launch of its sandbox
///   (the ``CallbackContext/generation``). A write by `outside` (`store.set`) or `system` counts
///   as another process's write; those never read.
/// - A write counts when it reaches the store, which under `lateDefaultsPropagation` is after the
///   delay (or at `synchronize()`): a read before then did not see it, and a write lost by its
///   process never counts. A late write is judged against the reads of the invocation that made it.
/// - A read answered from the reader's own pending write saw nothing of the store and changes
///   nothing here; a read blanked by `emptyDefaultsBeforeFirstUnlock` saw none of the values
///   written, so a write after it loses the last one another process stored.
/// - An invocation's own write moves what it has seen to that write (it knows the value it
///   wrote), so a lost update is reported once; its last read stays the `readSeq` of later reports.
///
/// It knows only what happened since it was switched on, and it cannot know what a write was
/// computed from: a write that does not depend on a read earlier in its invocation (a reset, a
/// flag set whatever it was) is reported all the same.
@_spi(Host) public struct LostUpdateDetector: Sendable {
    /// One process instance.
    private struct ProcessInstance: Hashable, Sendable {
        let actor: String
        let generation: Int

        /// The process running `context`; `system` when none is.
        init(_ context: CallbackContext?) {
            actor = context?.actor ?? "system"
            generation = context?.generation ?? 0
        }
    }

    /// What a read saw.
    @_spi(Host) public enum ReadView: Sendable {
        /// The value in the store.
        case store
        /// The reader's own write, not yet propagated (`lateDefaultsPropagation`).
        case ownPendingWrite
        /// Nothing: the value was hidden (`emptyDefaultsBeforeFirstUnlock`).
        case blanked
    }

    private struct Key: Hashable, Sendable {
        let suite: String
        let key: String
    }

    /// An invocation's last read of a key: its trace seq, and the last write it has seen (by
    /// ``commitCount``; 0: none). The invocation is its context, compared by identity and held
    /// weakly: a freed context reads as nil, so its address can never be taken for a later
    /// one's, and a context does not keep its sandbox — nor through it the App Group that holds
    /// this detector — alive (every device with the detector on was leaked so, issue 38).
    private struct Reading: Sendable {
        weak var invocation: CallbackContext?
        let readSeq: Int
        var seen: Int
    }

    /// A write that reached the store: who, its trace seq, and its place in ``commitCount``.
    private struct Commit: Sendable {
        let process: ProcessInstance
        let writeSeq: Int
        let number: Int
    }

    /// The last write of a key, and the last one by another process than its writer: enough to
    /// name the latest write of a key by anyone but a given process.
    private struct History: Sendable {
        var latest: Commit
        var latestByAnother: Commit?

        func latest(notBy process: ProcessInstance) -> Commit? {
            latest.process == process ? latestByAnother : latest
        }

        mutating func append(_ commit: Commit) {
            if commit.process != latest.process { latestByAnother = latest }
            latest = commit
        }
    }

    /// Last reads by actor name, then key: one invocation per actor (the latest to read).
    private var readings: [String: [Key: Reading]] = [:]
    private var histories: [Key: History] = [:]
    private var commitCount = 0

    /// `invocation` read `key` (traced as `seq`); seeing `view`.
    @_spi(Host) public mutating func read(in invocation: CallbackContext, suite: String, key: String, seq: Int, view: ReadView) {
        let seen: Int
        switch view {
        case .store: seen = commitCount
        case .blanked: seen = 0
        case .ownPendingWrite: return
        }
        if readings[invocation.actor]?.values.first?.invocation !== invocation { readings[invocation.actor] = [:] }
        readings[invocation.actor, default: [:]][Key(suite: suite, key: key)] = Reading(
            invocation: invocation, readSeq: seq, seen: seen)
    }

    /// A write of `key` made by `invocation` (traced as `writeSeq`; nil: by no process) reached
    /// the store: the lost update it caused, if any.
    @_spi(Host) public mutating func commit(in invocation: CallbackContext?, suite: String, key: String, writeSeq: Int) -> LostUpdate? {
        let process = ProcessInstance(invocation)
        let key = Key(suite: suite, key: key)
        commitCount += 1
        let commit = Commit(process: process, writeSeq: writeSeq, number: commitCount)
        var lost: LostUpdate?
        if let invocation, var reading = readings[invocation.actor]?[key], reading.invocation === invocation {
            if let other = histories[key]?.latest(notBy: process), other.number > reading.seen {
                lost = LostUpdate(
                    suite: key.suite, key: key.key, readSeq: reading.readSeq, otherActor: other.process.actor,
                    otherWriteSeq: other.writeSeq, writeSeq: writeSeq)
            }
            reading.seen = commit.number
            readings[invocation.actor]?[key] = reading
        }
        if histories[key] == nil {
            histories[key] = History(latest: commit)
        } else {
            histories[key]?.append(commit)
        }
        return lost
    }
}
