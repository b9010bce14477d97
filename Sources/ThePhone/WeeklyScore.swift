import Foundation

/// A lock or unlock as scoring sees it: its type and time (ms since 1970).
struct ScoredEvent: Sendable, Equatable {
    let eventType: EventType
    let timestamp: Int64
}

/// The week the device shows (`device.state.app.week`): the seed's `interface WeeklyScore`
/// (`totalPoints`, `streakCount`, `longestStreak` in seconds) for the week starting `weekStart`.
///
/// Seed: "Weekly score ✅ Full, calculated locally" — the phone computes it from the events it
/// holds (its own and those pulled from the user's other devices), with the server's rules
/// (`utils/scoring.ts`, `calculateWeeklyScore`), ported here because an app sees only the SDK.
struct WeeklyScore: Codable, Sendable, Equatable {
    /// The local Monday, `YYYY-MM-DD` (the seed's `week_start DATE`).
    let weekStart: String
    let totalPoints: Double
    let streakCount: Int
    /// Seconds, rounded.
    let longestStreak: Int

    /// Seed: `BASE_MULTIPLIER = 10`.
    static let baseMultiplier = 10.0
    /// Seed: `MINIMUM_STREAK_SECONDS = 60`.
    static let minimumStreakSeconds = 60.0

    /// The seed's `calculateStreakPoints`: a lock→unlock gap under 60 s scores 0, else
    /// `Math.max(0, Math.round(Math.log(minutes) * 10 * 100) / 100)`: 30 min → 34.01, 61 s → 0.17,
    /// exactly 60 s → 0 (ln 1).
    static func calculateStreakPoints(lockTimestamp: Int64, unlockTimestamp: Int64) -> Double {
        let durationSeconds = Double(unlockTimestamp - lockTimestamp) / 1000
        if durationSeconds < minimumStreakSeconds {
            return 0
        }
        let durationMinutes = durationSeconds / 60
        let points = log(durationMinutes) * baseMultiplier
        return max(0, roundToCents(points))
    }

    /// The seed's `calculateWeeklyScore` for the local week holding `now`: each unlock in
    /// `[Monday 00:00, next Monday 00:00)` (the device's zone; "Week Boundary Rule": the unlock's
    /// week) pairs with the latest lock strictly before it, of any age, even one an earlier
    /// unlock already used (the seed's `preceding_locks`: lock, unlock, unlock scores twice).
    /// Pairs scoring more than 0 count towards `streakCount` and `longestStreak`.
    static func currentWeek(of events: [ScoredEvent], now: Int64, timeZone: TimeZone) -> WeeklyScore {
        let week = LocalWeek(containing: now, in: timeZone)
        let locks = events.filter { $0.eventType == .lock }.map(\.timestamp).sorted()
        let unlocks = events.filter { $0.eventType == .unlock && $0.timestamp >= week.start && $0.timestamp < week.end }
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
        return WeeklyScore(
            weekStart: week.startDate, totalPoints: roundToCents(totalPoints), streakCount: streakCount,
            longestStreak: Int(longestStreak.rounded(.toNearestOrAwayFromZero)))
    }

    /// JavaScript's `Math.round(x * 100) / 100` for the non-negative values scoring makes
    /// (halves up).
    static func roundToCents(_ value: Double) -> Double {
        (value * 100).rounded(.toNearestOrAwayFromZero) / 100
    }
}

/// The seed's `getWeekStart` ("Week starts Monday 00:00 in user's timezone") with Foundation's
/// calendar (docs/apps/thephone.md, "The weekly score on the phone": the seed's JavaScript date
/// arithmetic is not ported).
struct LocalWeek: Sendable, Equatable {
    /// Monday 00:00, ms since 1970.
    let start: Int64
    /// The next Monday 00:00 (7 × 24 h, give or take a daylight-saving hour).
    let end: Int64
    /// The Monday, `YYYY-MM-DD`.
    let startDate: String

    init(containing timestamp: Int64, in timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.firstWeekday = 2
        let date = Date(timeIntervalSince1970: Double(timestamp) / 1000)
        let interval = calendar.dateInterval(of: .weekOfYear, for: date) ?? DateInterval(start: date, duration: 0)
        let day = calendar.dateComponents([.year, .month, .day], from: interval.start)
        start = Int64((interval.start.timeIntervalSince1970 * 1000).rounded())
        end = Int64((interval.end.timeIntervalSince1970 * 1000).rounded())
        startDate = Self.padded(day.year ?? 0, width: 4) + "-" + Self.padded(day.month ?? 0, width: 2) + "-"
            + Self.padded(day.day ?? 0, width: 2)
    }

    private static func padded(_ value: Int, width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
