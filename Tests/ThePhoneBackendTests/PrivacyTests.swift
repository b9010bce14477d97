import Foundation
import Testing

@testable import ThePhoneBackend

/// The seed's `exportUserData` and `deleteUserData` ("GDPR Compliance").
@Suite struct PrivacyTests {
    @Test func exportHasTheSeedsShapeAndColumnNames() throws {
        var backend = try PhoneBackend.with([("ann", "Europe/Berlin"), ("bob", "UTC")])
        let created = try backend.createGroup(username: "bob", name: "Friends", now: monday)
        try backend.joinGroup(username: "ann", code: created.code, now: monday + second)
        try backend.sync("ann", [event(2, .unlock, monday + 31 * minute), event(1, .lock, monday + minute)], now: monday + hour)
        let export = try backend.exportUserData(username: "ann", now: monday + 2 * hour + 5)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = String(decoding: try encoder.encode(export), as: UTF8.self)
        let id = try #require(backend.user(named: "ann")).id
        #expect(json == """
            {"account":{"created_at":"2026-11-23T00:00:00.000Z","email":"ann@thephone.invalid","id":"\(id)","platform":"ios",\
            "timezone":"Europe/Berlin","username":"ann"},"events":[{"event_type":"lock","source":"shortcut",\
            "timestamp":"2026-11-23T00:01:00.000Z"},{"event_type":"unlock","source":"shortcut","timestamp":"2026-11-23T00:31:00.000Z"}],\
            "exportedAt":"2026-11-23T02:00:00.005Z","following":[],"groups":[{"joined_at":"2026-11-23T00:00:01.000Z",\
            "name":"Friends","role":"member"}],"weeklyScores":[{"longest_streak":1800,"streak_count":1,"total_points":34.01,\
            "week_start":"2026-11-23"}]}
            """)
    }

    /// Memberships, events, scores and the user go; the device is signed out. A leaderboard
    /// cached before keeps the user until it expires (the seed's `*:<user id>:*` matches no
    /// leaderboard key).
    @Test func deleteRemovesTheUsersDataButNotCachedLeaderboards() throws {
        var backend = try PhoneBackend.with([("ann", "UTC"), ("bob", "UTC")])
        let created = try backend.createGroup(username: "bob", name: "Friends", now: monday)
        try backend.joinGroup(username: "ann", code: created.code, now: monday)
        try backend.sync("ann", [event(1, .lock, monday), event(2, .unlock, monday + 30 * minute)], now: monday + hour)
        #expect(try backend.getGroupLeaderboard(groupId: created.groupId, now: monday + hour).map(\.username) == ["ann", "bob"])
        #expect(try backend.deleteUserData(username: "ann") == DeleteResponse(success: true))
        #expect(backend.user(named: "ann") == nil)
        #expect(backend.user(signedInOn: "ann") == nil)
        #expect(backend.events.count == 0 && backend.weeklyScores.count == 0)
        #expect(backend.group(id: created.groupId)?.members.count == 1)
        #expect(throws: PhoneBackendError.noSuchUser) { try backend.exportUserData(username: "ann", now: monday + hour) }
        #expect(try backend.getGroupLeaderboard(groupId: created.groupId, now: monday + hour + minute).map(\.username) == ["ann", "bob"])
        #expect(try backend.getGroupLeaderboard(groupId: created.groupId, now: monday + hour + 5 * minute).map(\.username) == ["bob"])
        try backend.register(username: "ann", device: "ann", timezone: "UTC", platform: "ios", now: monday + 2 * hour)
        #expect(try backend.events(of: "ann").isEmpty)
    }

    /// `groups.creator_id REFERENCES users(id)` has no `ON DELETE`: the seed's transaction rolls back.
    @Test func aGroupsCreatorCannotBeDeleted() throws {
        var backend = try PhoneBackend.with([("bob", "UTC")])
        _ = try backend.createGroup(username: "bob", name: "Friends", now: monday)
        try backend.sync("bob", [event(1, .lock, monday)], now: monday)
        let before = backend
        #expect(throws: PhoneBackendError.groupCreator) { try backend.deleteUserData(username: "bob") }
        #expect(backend == before)
    }

    /// Times are written in the proleptic Gregorian calendar, as the device writes them, before
    /// 1582 too (issue 38: Foundation's calendar, Julian there, showed 1000-01-01 as 0999-12-27);
    /// years before 1 as the device writes them.
    @Test func timesAreProlepticGregorianAsTheDeviceWritesThem() {
        #expect(Timestamps.iso(0) == "1970-01-01T00:00:00.000Z")
        #expect(Timestamps.iso(-1) == "1969-12-31T23:59:59.999Z")
        #expect(Timestamps.iso(-30_610_224_000_000) == "1000-01-01T00:00:00.000Z")
        #expect(Timestamps.iso(-12_219_292_800_001) == "1582-10-14T23:59:59.999Z", "the day before the Gregorian switch")
        #expect(Timestamps.iso(-62_135_596_800_000) == "0001-01-01T00:00:00.000Z")
        #expect(Timestamps.iso(-62_167_219_200_000) == "0000-01-01T00:00:00.000Z")
        #expect(Timestamps.iso(-62_198_755_200_000) == "-0001-01-01T00:00:00.000Z")
        #expect(Timestamps.iso(253_402_300_799_999) == "9999-12-31T23:59:59.999Z")
        #expect(Timestamps.iso(1_767_603_600_123) == "2026-01-05T09:00:00.123Z")
    }
}
