import Foundation

/// What a random or PCT exploration covered, counted in interleavings: schedules whose reads
/// all saw the same writes are one (``ReadsFrom/classHash``), however their steps were ordered
/// (docs/scenarios.md, "Coverage").
///
/// Deterministic for a seed range: each class keeps the two lowest positions (in the shard's
/// order) at which it was seen, so the counts up to any position do not depend on which job ran
/// which schedule first.
// unchecked: lock-protected: `firstSeen` is touched only under `lock` (NSLock, as ExplorationLedger)
final class InterleavingCoverage: @unchecked Sendable {
    private let lock = NSLock()
    private let first: Int
    private let step: Int
    /// For each class, the lowest two positions it was seen at.
    private var firstSeen: [UInt64: (Int, Int?)] = [:]

    init(first: Int, step: Int) {
        self.first = first
        self.step = max(1, step)
    }

    /// Schedule `index` ran, its reads-from relation hashing to `hash`.
    func record(index: Int, hash: UInt64) {
        let position = (index - first) / step
        lock.withLock {
            guard let (lowest, second) = firstSeen[hash] else {
                firstSeen[hash] = (position, nil)
                return
            }
            let sorted = [lowest, second ?? .max, position].sorted()
            firstSeen[hash] = (sorted[0], sorted[1] == .max ? nil : sorted[1])
        }
    }

    /// The coverage of the first `schedules` positions (those an exploration counts); nil when
    /// none ran.
    func report(schedules: Int) -> ExplorationCoverage? {
        guard schedules > 0 else { return nil }
        let recent = min(1_000, max(1, (schedules + 9) / 10))
        return lock.withLock {
            var interleavings = 0
            var seenOnce = 0
            var newInRecent = 0
            for (lowest, second) in firstSeen.values where lowest < schedules {
                interleavings += 1
                if (second ?? .max) >= schedules { seenOnce += 1 }
                if lowest >= schedules - recent { newInRecent += 1 }
            }
            return ExplorationCoverage(
                schedules: schedules, interleavings: interleavings, seenOnce: seenOnce, recentSchedules: recent,
                newInRecent: newInRecent, newInterleavingChance: Double(seenOnce) / Double(schedules))
        }
    }
}
