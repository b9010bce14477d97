import Foundation
import Testing

@testable import ThePhoneBackend

/// The week of an unlock: Monday 00:00 in the user's time zone (seed's `getWeekStart`;
/// docs/apps/thephone-backend.md, "Rules, with their source"), and the seed's `updateWeeklyScore`
/// recalculating the current week only.
@Suite struct WeekTests {
    /// Sunday 2026-11-22 23:30 UTC: Monday 00:30 in Berlin, Sunday 18:30 in New York.
    let sundayNight = at("2026-11-22T23:30:00Z")

    @Test func weeksStartOnTheLocalMonday() throws {
        let berlin = Week(containing: sundayNight, in: try #require(TimeZone(identifier: "Europe/Berlin")))
        let newYork = Week(containing: sundayNight, in: try #require(TimeZone(identifier: "America/New_York")))
        #expect(berlin == Week(containing: at("2026-11-23T12:00:00Z"), in: try #require(TimeZone(identifier: "Europe/Berlin"))))
        #expect((berlin.startDate, berlin.start, berlin.end) == ("2026-11-23", at("2026-11-22T23:00:00Z"), at("2026-11-29T23:00:00Z")))
        #expect((newYork.startDate, newYork.start, newYork.end) == ("2026-11-16", at("2026-11-16T05:00:00Z"), at("2026-11-23T05:00:00Z")))
        #expect(Week.utc(containing: sundayNight).startDate == "2026-11-16")
    }

    /// Berlin's clocks go forward on Sunday 2026-03-29: that week is an hour short.
    @Test func aWeekEndsAtTheNextLocalMondayAcrossDaylightSavingTime() throws {
        let week = Week(containing: at("2026-03-25T12:00:00Z"), in: try #require(TimeZone(identifier: "Europe/Berlin")))
        #expect((week.startDate, week.start, week.end) == ("2026-03-23", at("2026-03-22T23:00:00Z"), at("2026-03-29T22:00:00Z")))
    }

    /// The same instant scores in different weeks for users in two time zones.
    @Test func theSameStreakGoesToEachUsersLocalWeek() throws {
        var backend = try PhoneBackend.with([("ann", "Europe/Berlin"), ("bob", "America/New_York")], now: sundayNight)
        for name in ["ann", "bob"] {
            try backend.sync(name, [event(1, .lock, sundayNight - 30 * minute), event(2, .unlock, sundayNight)], now: sundayNight)
        }
        #expect(try backend.weeklyScores(of: "ann").map(\.weekStart) == ["2026-11-23"])
        #expect(try backend.score("ann", "2026-11-23")?.totalPoints == 34.01)
        #expect(try backend.weeklyScores(of: "bob").map(\.weekStart) == ["2026-11-16"])
        #expect(try backend.score("bob", "2026-11-16")?.totalPoints == 34.01)
    }

    /// Seed gap kept (docs/apps/thephone-backend.md, "Seed gaps kept as written"): only the current
    /// week is recalculated, so a streak synced after its week ended never counts: Bob's Sunday
    /// streak reaches the backend after his local Monday 00:00 (05:00 UTC); the week it belongs to
    /// never gets a row.
    @Test func eventsSyncedAfterTheirWeekEndedNeverCount() throws {
        var backend = try PhoneBackend.with([("bob", "America/New_York")], now: sundayNight)
        let mondayInNewYork = at("2026-11-23T05:00:00Z")
        try backend.sync("bob", [event(1, .lock, sundayNight - 30 * minute), event(2, .unlock, sundayNight)], now: mondayInNewYork)
        #expect(try backend.weeklyScores(of: "bob").map(\.weekStart) == ["2026-11-23"])
        #expect(try backend.score("bob", "2026-11-23")?.totalPoints == 0)
        #expect(backend.calculateWeeklyScore(
            userId: try #require(backend.user(named: "bob")).id,
            week: Week(containing: sundayNight, in: try #require(TimeZone(identifier: "America/New_York")))).totalPoints == 34.01)
    }

    /// A later sync recalculates the whole current week, old pairs included.
    @Test func aSyncRecalculatesTheWholeCurrentWeek() throws {
        var backend = try PhoneBackend.with([("ann", "UTC")])
        try backend.sync("ann", [event(1, .lock, monday + hour), event(2, .unlock, monday + hour + 30 * minute)], now: monday + 2 * hour)
        try backend.sync("ann", [event(3, .lock, monday + 3 * hour), event(4, .unlock, monday + 4 * hour)], now: monday + 5 * hour)
        #expect(try backend.weeklyScores(of: "ann") == [WeeklyScore(
            userId: try #require(backend.user(named: "ann")).id, weekStart: "2026-11-23", totalPoints: 74.95, streakCount: 2,
            longestStreak: 3600, calculatedAt: monday + 5 * hour)])
    }
}
