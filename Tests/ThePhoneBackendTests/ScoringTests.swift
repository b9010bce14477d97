import Testing

@testable import ThePhoneBackend

/// The seed's `calculateStreakPoints` and `calculateWeeklyScore` ("Score Calculation").
@Suite struct ScoringTests {
    @Test func aThirtyMinuteLockScores34_01() {
        #expect(Scoring.calculateStreakPoints(lockTimestamp: monday, unlockTimestamp: monday + 30 * minute) == 34.01)
    }

    @Test func underSixtySecondsScoresNothing() {
        #expect(Scoring.calculateStreakPoints(lockTimestamp: monday, unlockTimestamp: monday + 59_999) == 0)
        #expect(Scoring.calculateStreakPoints(lockTimestamp: monday, unlockTimestamp: monday + 60 * second) == 0)
        #expect(Scoring.calculateStreakPoints(lockTimestamp: monday, unlockTimestamp: monday + 61 * second) == 0.17)
        #expect(Scoring.calculateStreakPoints(lockTimestamp: monday, unlockTimestamp: monday + hour) == 40.94)
    }

    @Test func halvesRoundUpAsMathRound() {
        #expect(Scoring.roundToCents(0.125) == 0.13)
        #expect(Scoring.roundToCents(2.004) == 2.0)
    }

    /// Seed: "lock on Sunday 11:50pm and unlock Monday 12:10am, Monday's week gets the full streak points".
    @Test func theUnlocksWeekGetsTheWholeStreak() {
        let events = [
            PhoneEvent(id: "1", userId: "u", clientId: "a", eventType: .lock, timestamp: monday - 10 * minute, source: "s", createdAt: 0),
            PhoneEvent(id: "2", userId: "u", clientId: "b", eventType: .unlock, timestamp: monday + 10 * minute, source: "s", createdAt: 0),
        ]
        let thisWeek = Scoring.calculateWeeklyScore(events: events, weekStart: monday, weekEnd: monday + 7 * day)
        let lastWeek = Scoring.calculateWeeklyScore(events: events, weekStart: monday - 7 * day, weekEnd: monday)
        #expect(thisWeek == Scoring.Totals(totalPoints: 29.96, streakCount: 1, longestStreak: 1200))
        #expect(lastWeek == Scoring.Totals(totalPoints: 0, streakCount: 0, longestStreak: 0))
    }

    /// Seed gap kept (docs/apps/thephone-backend.md, "Seed gaps kept as written"): the seed's
    /// `preceding_locks` pairs an unlock with the latest earlier lock even when another unlock
    /// already used it: lock, unlock, unlock scores twice.
    @Test func lockUnlockUnlockScoresTwice() throws {
        var backend = try PhoneBackend.with([("ann", "UTC")])
        try backend.sync(
            "ann", [event(1, .lock, monday + hour), event(2, .unlock, monday + hour + 30 * minute), event(3, .unlock, monday + 2 * hour)],
            now: monday + 2 * hour)
        let score = try #require(try backend.score("ann", "2026-11-23"))
        #expect(score.totalPoints == 74.95)  // 34.01 + 40.94 (60 min), the second streak the longer
        #expect(score.streakCount == 2)
        #expect(score.longestStreak == 3600)
    }

    @Test func aLockAtTheUnlocksInstantDoesNotPair() {
        let events = [
            PhoneEvent(id: "1", userId: "u", clientId: "a", eventType: .lock, timestamp: monday, source: "s", createdAt: 0),
            PhoneEvent(id: "2", userId: "u", clientId: "b", eventType: .lock, timestamp: monday + hour, source: "s", createdAt: 0),
            PhoneEvent(id: "3", userId: "u", clientId: "c", eventType: .unlock, timestamp: monday + hour, source: "s", createdAt: 0),
        ]
        let totals = Scoring.calculateWeeklyScore(events: events, weekStart: monday, weekEnd: monday + 7 * day)
        #expect(totals == Scoring.Totals(totalPoints: 40.94, streakCount: 1, longestStreak: 3600))
    }

    /// docs/apps/thephone.md, "How unlocks arrive on iOS": with the seed's unlock automation alone
    /// no lock is recorded: nothing scores.
    @Test func unlocksWithoutLocksScoreNothing() throws {
        var backend = try PhoneBackend.with([("ann", "UTC")])
        try backend.sync("ann", [event(1, .unlock, monday + hour), event(2, .unlock, monday + 3 * hour)], now: monday + 3 * hour)
        #expect(try backend.score("ann", "2026-11-23") == WeeklyScore(
            userId: try #require(backend.user(named: "ann")).id, weekStart: "2026-11-23", totalPoints: 0, streakCount: 0,
            longestStreak: 0, calculatedAt: monday + 3 * hour))
    }
}
