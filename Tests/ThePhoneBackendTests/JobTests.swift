import Testing

@testable import ThePhoneBackend

/// The backend's clock and scheduled jobs: retention (seed's `purgeOldEvents`, daily 03:00 UTC,
/// 90 days) and the weekly reset (Monday 00:00 UTC) (docs/apps/thephone-backend.md, "Jobs").
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

    /// One long move of the clock passes over what cannot change anything (temptation runs once
    /// no one can be tempted, every job of a quiet stretch but its last week's) and ends exactly
    /// where moving it five minutes at a time ends: the same tables, keys, random state and
    /// temptations sent.
    @Test func oneLongMoveEndsWhereShortStepsDo() throws {
        func tempted() throws -> PhoneBackend {
            var backend = try PhoneBackend.with([("ann", "UTC"), ("bob", "Asia/Tokyo")])
            for name in ["ann", "bob"] {
                try backend.updateTrackingStatus(username: name, status: .verified)
                try backend.updateTemptationSettings(
                    username: name, enabled: true, intensity: .high, quietStart: "22:00", quietEnd: "07:00", now: monday)
            }
            try backend.sync("ann", [event(1, .lock, monday + 10 * hour)], now: monday + 10 * hour)
            try backend.sync("bob", [event(2, .lock, monday + 11 * hour), event(3, .unlock, monday + 30 * day)], now: monday + 11 * hour)
            return backend
        }
        let end = monday + 200 * day + 7 * minute
        var stepped = try tempted()
        var steppedJobs: [BackendJob] = []
        var time = stepped.clock
        while time < end {
            time = min(time + 5 * minute, end)
            steppedJobs += stepped.advanceClock(to: time)
        }
        var jumped = try tempted()
        let jumpedJobs = jumped.advanceClock(to: end)
        #expect(jumped == stepped)
        #expect(jumpedJobs.filter(Self.isTemptation) == steppedJobs.filter(Self.isTemptation))
        #expect(jumpedJobs.filter(Self.isTemptation).count > 100, "ann is tempted for 90 days, until her lock is purged")
        #expect(jumpedJobs.filter(\.changedSomething).last == steppedJobs.filter(\.changedSomething).last)
    }

    /// Ten thousand years in one move (a device advanced offline for long, a damaged snapshot)
    /// once asked for an array of a billion temptation times; now the quiet stretch is passed
    /// over and only its last week's jobs are listed.
    @Test func tenThousandYearsInOneMove() throws {
        var backend = try PhoneBackend.with([("ann", "UTC")])
        try backend.sync("ann", [event(1, .lock, monday + hour)], now: monday + hour)
        let end = monday + 3_652_425 * day
        let jobs = backend.advanceClock(to: end)
        #expect(backend.clock == end)
        #expect(try backend.events(of: "ann").isEmpty)
        #expect(jobs.contains(.purgeOldEvents(at: monday + 90 * day + 3 * hour, purged: 1)))
        #expect(jobs.count < 92 + 14 + 10, "the first ninety days' purges and resets, then the last week's")
        #expect(jobs.last?.at ?? 0 > end - day)
    }

    private static func isTemptation(_ job: BackendJob) -> Bool {
        if case .processTemptations = job { true } else { false }
    }

    /// The clock moves at most to the end of ``PhoneBackend/times``, where no job's time can
    /// overflow; a backend outside it is not one a device made.
    @Test func theClockStopsAtTheEndOfTheTimesItComputesWith() throws {
        var backend = try PhoneBackend.with([("ann", "UTC")])
        _ = backend.advanceClock(to: .max)
        #expect(backend.clock == PhoneBackend.times.upperBound)
        #expect(backend.timesAreWithinRange)
        backend.clock = .min
        #expect(!backend.timesAreWithinRange)
    }
}
