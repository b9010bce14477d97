import Testing

@testable import ThePhoneBackend

/// Groups and their leaderboard (seed: `groups`, `group_members`, `getGroupLeaderboard`;
/// docs/apps/thephone-backend.md, "Rules, with their source").
@Suite struct GroupTests {
    /// Wednesday 2026-11-25 10:00 UTC: the week of Monday 2026-11-23 in UTC, Berlin, New York and Tokyo.
    let wednesday = at("2026-11-25T10:00:00Z")

    /// Ann (Berlin, verified) and Cho (Tokyo, pending) lock 4 minutes (13.86, 240 s); Bob (New York,
    /// broken) twice 2 minutes (6.93 × 2 = 13.86, 120 s); Abe (UTC, verified) never locks.
    @Test func leaderboardOrdersByPointsThenLongestStreakThenUsernameAndFlags() throws {
        var backend = try PhoneBackend.with(
            [("ann", "Europe/Berlin"), ("bob", "America/New_York"), ("cho", "Asia/Tokyo"), ("abe", "UTC")], now: wednesday)
        let created = try backend.createGroup(username: "cho", name: "Phone-free", now: wednesday)
        for name in ["bob", "ann", "abe"] {
            try backend.joinGroup(username: name, code: created.code, now: wednesday)
        }
        try backend.updateTrackingStatus(username: "ann", status: .verified)
        try backend.updateTrackingStatus(username: "abe", status: .verified)
        try backend.updateTrackingStatus(username: "bob", status: .broken)
        for name in ["ann", "cho"] {
            try backend.sync(name, [event(1, .lock, wednesday), event(2, .unlock, wednesday + 4 * minute)], now: wednesday + hour)
        }
        try backend.sync(
            "bob",
            [event(1, .lock, wednesday), event(2, .unlock, wednesday + 2 * minute), event(3, .lock, wednesday + 10 * minute),
             event(4, .unlock, wednesday + 12 * minute)],
            now: wednesday + hour)
        let leaderboard = try backend.groupLeaderboard(username: "abe", groupId: created.groupId, now: wednesday + hour)
        #expect(leaderboard.map(\.username) == ["ann", "cho", "bob", "abe"])
        #expect(leaderboard.map(\.rank) == [1, 2, 3, 4])
        #expect(leaderboard.map(\.totalPoints) == [13.86, 13.86, 13.86, 0])
        #expect(leaderboard.map(\.longestStreak) == [240, 240, 120, 0])
        #expect(leaderboard.map(\.streakCount) == [1, 1, 2, 0])
        #expect(leaderboard.map(\.status) == [.verified, .pending, .broken, .verified])
        #expect(leaderboard.map(\.flagged) == [false, true, true, false])
        #expect(leaderboard.allSatisfy { $0.device == $0.username && $0.status == $0.trackingStatus })
    }

    /// Seed gap kept (docs/apps/thephone-backend.md, "Seed gaps kept as written"): "users cannot
    /// participate in scoring until verified" is a UI gate only; the backend scores a pending user,
    /// and ranks them, flagged.
    @Test func unverifiedUsersAreScored() throws {
        var backend = try PhoneBackend.with([("ann", "UTC")], now: wednesday)
        let created = try backend.createGroup(username: "ann", name: "Solo", now: wednesday)
        try backend.sync("ann", [event(1, .lock, wednesday), event(2, .unlock, wednesday + 30 * minute)], now: wednesday + hour)
        let entry = try #require(try backend.groupLeaderboard(username: "ann", groupId: created.groupId, now: wednesday + hour).first)
        #expect((entry.totalPoints, entry.trackingStatus, entry.flagged) == (34.01, .pending, true))
    }

    /// The leaderboard reads the UTC week's Monday (seed: `getWeekStart(new Date(), 'UTC')`, kept):
    /// on Sunday 20:00 UTC it is already Monday in Tokyo, so Cho's new week does not show until
    /// the UTC Monday.
    @Test func leaderboardReadsTheUTCWeek() throws {
        let sunday = at("2026-11-22T20:00:00Z")
        var backend = try PhoneBackend.with([("cho", "Asia/Tokyo")], now: sunday)
        let created = try backend.createGroup(username: "cho", name: "Tokyo", now: sunday)
        try backend.sync("cho", [event(1, .lock, sunday - hour), event(2, .unlock, sunday - 30 * minute)], now: sunday)
        #expect(try backend.score("cho", "2026-11-23")?.totalPoints == 34.01)
        #expect(try backend.calculateLeaderboard(groupId: created.groupId, now: sunday).map(\.totalPoints) == [0])
        #expect(try backend.calculateLeaderboard(groupId: created.groupId, now: sunday + 4 * hour).map(\.totalPoints) == [34.01])
    }

    /// Seed: "Cache for 5 minutes" per group and UTC week; the weekly reset drops every cache.
    @Test func leaderboardIsCachedForFiveMinutes() throws {
        var backend = try PhoneBackend.with([("ann", "UTC")], now: wednesday)
        let created = try backend.createGroup(username: "ann", name: "Cached", now: wednesday)
        #expect(try backend.getGroupLeaderboard(groupId: created.groupId, now: wednesday).map(\.totalPoints) == [0])
        try backend.sync("ann", [event(1, .lock, wednesday - 30 * minute), event(2, .unlock, wednesday)], now: wednesday + minute)
        #expect(try backend.getGroupLeaderboard(groupId: created.groupId, now: wednesday + 5 * minute - 1).map(\.totalPoints) == [0])
        #expect(try backend.getGroupLeaderboard(groupId: created.groupId, now: wednesday + 5 * minute).map(\.totalPoints) == [34.01])
        #expect(!backend.leaderboardCache.isEmpty)
        backend.weeklyReset()
        #expect(backend.leaderboardCache.isEmpty)
    }

    /// Seed: `max_members INTEGER NOT NULL DEFAULT 50`: the creator and 49 more, then full.
    @Test func aGroupHoldsAtMostFiftyMembers() throws {
        var backend = try PhoneBackend.with((0...50).map { ("user\($0)", "UTC") }, now: wednesday)
        let created = try backend.createGroup(username: "user0", name: "Fifty", now: wednesday)
        for n in 1...49 {
            try backend.joinGroup(username: "user\(n)", groupId: created.groupId, now: wednesday)
        }
        #expect(throws: PhoneBackendError.groupFull) { try backend.joinGroup(username: "user50", code: created.code, now: wednesday) }
        #expect(backend.group(id: created.groupId)?.members.count == 50)
        try backend.leaveGroup(username: "user7", groupId: created.groupId)
        try backend.joinGroup(username: "user50", code: created.code, now: wednesday)
        #expect(try backend.calculateLeaderboard(groupId: created.groupId, now: wednesday).count == 50)
    }

    @Test func joiningLeavingAndAskingRefusals() throws {
        var backend = try PhoneBackend.with([("ann", "UTC"), ("bob", "UTC")], now: wednesday)
        let open = try backend.createGroup(username: "ann", name: "Open", now: wednesday)
        let closed = try backend.createGroup(username: "ann", name: "Closed", description: "friends", isPrivate: true, now: wednesday)
        #expect(open.code != closed.code)
        #expect(throws: PhoneBackendError.alreadyMember) { try backend.joinGroup(username: "ann", code: open.code, now: wednesday) }
        #expect(throws: PhoneBackendError.noSuchGroup) { try backend.joinGroup(username: "bob", code: "NOCODE", now: wednesday) }
        #expect(throws: PhoneBackendError.noSuchGroup) { try backend.joinGroup(username: "bob", groupId: closed.groupId, now: wednesday) }
        #expect(throws: PhoneBackendError.notMember) { try backend.leaveGroup(username: "bob", groupId: open.groupId) }
        #expect(throws: PhoneBackendError.notMember) {
            try backend.groupLeaderboard(username: "bob", groupId: open.groupId, now: wednesday)
        }
        #expect(throws: PhoneBackendError.noSuchGroup) { try backend.groupLeaderboard(username: "bob", groupId: "nope", now: wednesday) }
        try backend.joinGroup(username: "bob", code: closed.code, now: wednesday + minute)
        #expect(try backend.groups(of: "bob").map(\.name) == ["Closed"])
        #expect(backend.allGroups.map(\.name) == ["Open", "Closed"])
        #expect(backend.group(id: closed.groupId)?.members.map(\.role) == ["admin", "member"])
    }
}
