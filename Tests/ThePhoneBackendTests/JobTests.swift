import Testing

@testable import ThePhoneBackend

/// The backend's clock and scheduled jobs: retention (seed's `purgeOldEvents`, daily 03:00 UTC,
/// 90 days) and the weekly reset (Monday 00:00 UTC) (APPS.md §4.6).
@Suite struct JobTests {
    @Test func retentionDeletesEventsOlderThanNinetyDays() throws {
        var backend = try PhoneBackend.with([("ann", "UTC")])
        let now = monday + 3 * hour
        try backend.sync("ann", [event(1, .lock, now - 3 * day), event(2, .unlock, now)], now: now)
        let purgeAt = now + 87 * day
        #expect(backend.purgeOldEvents(now: purgeAt - 1) == 0)
        #expect(backend.purgeOldEvents(now: purgeAt + 1) == 1)
        #expect(try backend.events(of: "ann").map(\.timestamp) == [now])
        #expect(try backend.weeklyScores(of: "ann").count == 1)
    }

    @Test func advancingTheClockRunsEachJobAtItsTime() throws {
        var backend = PhoneBackend(now: at("2026-11-22T12:00:00Z"))
        #expect(backend.advanceClock(to: at("2026-11-24T03:00:00Z")) == [
            .weeklyReset(at: monday), .purgeOldEvents(at: monday + 3 * hour, purged: 0),
            .purgeOldEvents(at: monday + day + 3 * hour, purged: 0),
        ])
        #expect(backend.clock == monday + day + 3 * hour)
        #expect(backend.advanceClock(to: monday) == [])
        #expect(backend.clock == monday + day + 3 * hour)
        #expect(backend.advanceClock(to: monday + day + 4 * hour) == [])
    }

    @Test func aScheduledPurgeDeletesByTimestamp() throws {
        var backend = try PhoneBackend.with([("ann", "UTC")])
        try backend.sync("ann", [event(1, .lock, monday - 2 * day), event(2, .lock, monday + hour)], now: monday + hour)
        let jobs = backend.advanceClock(to: monday + 89 * day)
        #expect(jobs.contains(.purgeOldEvents(at: monday + 88 * day + 3 * hour, purged: 1)))
        #expect(jobs.filter { if case .weeklyReset = $0 { true } else { false } }.count == 12)
        #expect(jobs.map(\.at) == jobs.map(\.at).sorted())
        #expect(try backend.events(of: "ann").count == 1)
    }
}
