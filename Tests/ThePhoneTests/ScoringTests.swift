import Foundation
import Testing

@testable import ThePhone

/// The device's own scoring (docs/apps/thephone.md, "The weekly score on the phone"; seed
/// `calculateStreakPoints`, `calculateWeeklyScore`, "Week Boundary Rule"): the numbers of the seed.
@Suite struct ScoringTests {
    private let minute: Int64 = 60_000
    private let monday = milliseconds("2026-01-05T09:00:00Z")

    @Test(arguments: [
        (30 * 60_000, 34.01), (60_000, 0), (61_000, 0.17), (59_999, 0), (0, 0), (60 * 60_000, 40.94), (24 * 3_600_000, 72.72),
    ] as [(Int64, Double)])
    func streakPointsAreTenTimesTheLogOfTheMinutesRoundedToCents(gap: Int64, points: Double) {
        #expect(WeeklyScore.calculateStreakPoints(lockTimestamp: monday, unlockTimestamp: monday + gap) == points)
    }

    @Test func eachUnlockPairsWithTheLatestEarlierLockEvenOneAlreadyUsed() {
        let events = [
            ScoredEvent(eventType: .lock, timestamp: monday),
            ScoredEvent(eventType: .unlock, timestamp: monday + 30 * minute),
            ScoredEvent(eventType: .unlock, timestamp: monday + 60 * minute),
        ]
        let week = WeeklyScore.currentWeek(of: events, now: monday + 61 * minute, timeZone: .gmt)
        #expect(week == WeeklyScore(weekStart: "2026-01-05", totalPoints: 74.95, streakCount: 2, longestStreak: 3600))
    }

    @Test func unlocksWithoutALockBeforeThemScoreNothing() {
        let events = (1...5).map { ScoredEvent(eventType: .unlock, timestamp: monday + Int64($0) * 30 * minute) }
        let week = WeeklyScore.currentWeek(of: events, now: monday + 200 * minute, timeZone: .gmt)
        #expect(week == WeeklyScore(weekStart: "2026-01-05", totalPoints: 0, streakCount: 0, longestStreak: 0))
    }

    @Test func gapsUnderAMinuteCountNeitherPointsNorStreaks() {
        let events = [
            ScoredEvent(eventType: .lock, timestamp: monday), ScoredEvent(eventType: .unlock, timestamp: monday + 59_000),
            ScoredEvent(eventType: .lock, timestamp: monday + 2 * minute),
            ScoredEvent(eventType: .unlock, timestamp: monday + 2 * minute + 61_000),
        ]
        let week = WeeklyScore.currentWeek(of: events, now: monday + 10 * minute, timeZone: .gmt)
        #expect(week == WeeklyScore(weekStart: "2026-01-05", totalPoints: 0.17, streakCount: 1, longestStreak: 61))
    }

    /// Seed: "If you lock on Sunday 11:50pm and unlock Monday 12:10am, Monday's week gets the full
    /// streak points" — in the device's zone.
    @Test func aStreakBelongsToTheWeekOfItsUnlockInTheDevicesZone() throws {
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        let sunday = milliseconds("2026-01-11T23:50:00+09:00")
        let events = [
            ScoredEvent(eventType: .lock, timestamp: sunday), ScoredEvent(eventType: .unlock, timestamp: sunday + 20 * minute),
        ]
        let next = WeeklyScore.currentWeek(of: events, now: sunday + 30 * minute, timeZone: tokyo)
        #expect(next == WeeklyScore(weekStart: "2026-01-12", totalPoints: 29.96, streakCount: 1, longestStreak: 1200))
        let previous = WeeklyScore.currentWeek(of: events, now: sunday, timeZone: tokyo)
        #expect(previous == WeeklyScore(weekStart: "2026-01-05", totalPoints: 0, streakCount: 0, longestStreak: 0))
        #expect(LocalWeek(containing: sunday, in: .gmt).startDate == "2026-01-05", "14:50 UTC on Sunday")
    }
}
