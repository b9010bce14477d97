import Foundation

/// The seed's scoring ("Score Calculation": `utils/scoring.ts` and `calculateWeeklyScore`), as
/// pure functions of events.
public enum Scoring {
    /// Seed: `BASE_MULTIPLIER = 10`.
    public static let baseMultiplier = 10.0
    /// Seed: `MINIMUM_STREAK_SECONDS = 60`.
    public static let minimumStreakSeconds = 60.0

    /// What one week adds up to (the seed's `interface WeeklyScore`).
    public struct Totals: Codable, Sendable, Equatable {
        public let totalPoints: Double
        public let streakCount: Int
        /// Seconds.
        public let longestStreak: Int
    }

    /// The seed's `calculateStreakPoints`: a lock→unlock gap under 60 s scores 0, otherwise
    /// `Math.round(ln(minutes) × 10 × 100) / 100` (a 30-minute lock scores 34.01, 61 s 0.17).
    public static func calculateStreakPoints(lockTimestamp: Int64, unlockTimestamp: Int64) -> Double {
        let durationSeconds = Double(unlockTimestamp - lockTimestamp) / 1000
        if durationSeconds < minimumStreakSeconds {
            return 0
        }
        let durationMinutes = durationSeconds / 60
        let points = log(durationMinutes) * baseMultiplier
        return max(0, roundToCents(points))
    }

    /// The seed's `calculateWeeklyScore` over one user's events: every unlock in
    /// `[weekStart, weekEnd)` pairs with the latest lock strictly before it, of any age, even one
    /// an earlier unlock already paired with (the seed's `preceding_locks`: lock, unlock, unlock
    /// scores twice); pairs scoring more than 0 count towards the streaks.
    public static func calculateWeeklyScore(events: [PhoneEvent], weekStart: Int64, weekEnd: Int64) -> Totals {
        let locks = events.filter { $0.eventType == .lock }.map(\.timestamp).sorted()
        let unlocks = events.filter { $0.eventType == .unlock && $0.timestamp >= weekStart && $0.timestamp < weekEnd }
            .map(\.timestamp).sorted()
        var totalPoints = 0.0
        var streakCount = 0
        var longestStreak = 0.0
        // Both sorted: the latest lock before each unlock is found walking the locks once.
        var next = 0
        for unlock in unlocks {
            while next < locks.count, locks[next] < unlock { next += 1 }
            guard next > 0 else { continue }
            let lock = locks[next - 1]
            let points = calculateStreakPoints(lockTimestamp: lock, unlockTimestamp: unlock)
            if points > 0 {
                totalPoints += points
                streakCount += 1
                longestStreak = max(longestStreak, Double(unlock - lock) / 1000)
            }
        }
        return Totals(
            totalPoints: roundToCents(totalPoints), streakCount: streakCount,
            longestStreak: Int(longestStreak.rounded(.toNearestOrAwayFromZero)))
    }

    /// JavaScript's `Math.round(x * 100) / 100` for the non-negative values scoring produces
    /// (halves round up).
    static func roundToCents(_ value: Double) -> Double {
        (value * 100).rounded(.toNearestOrAwayFromZero) / 100
    }
}
