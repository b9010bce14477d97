import ControlProtocol
import DeviceActors
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import ThePhone

/// Groups (docs/apps/thephone.md, "Intents"): create, join by code or a public group's id, at most
/// 50 members, leave, the leaderboard, each refusal the server's.
@Suite struct GroupTests {
    @Test func createJoinLeaveAndTheLeaderboard() throws {
        let servers = Servers()
        let alice = try TestDevice.iPhone("alice", servers: servers)
        let bob = try TestDevice.iPhone("bob", servers: servers)
        let created = try alice.intent("group.create", ["name": "Family", "isPrivate": true], effects: [request("POST", "/groups", 201)])
        let groupId = try #require(created["groupId"]?.stringValue)
        let code = try #require(created["code"]?.stringValue)
        #expect(created.objectValue?.count == 2)
        #expect(try alice.phone().groups == [GroupMembership(groupId: groupId, name: "Family", code: code, role: "admin")])

        let joined = try bob.intent("group.join", ["code": .string(code)], effects: [request("POST", "/invites/redeem")])
        #expect(joined == ["groupId": .string(groupId), "name": "Family", "code": .string(code), "role": "member"])
        #expect(try bob.phone().groups.map(\.role) == ["member"])
        #expect(refusal { try bob.intent("group.join", ["code": .string(code)], effects: [request("POST", "/invites/redeem", 409)]) } == "alreadyMember")
        #expect(refusal { try bob.intent("group.join", ["code": "NOPE42"], effects: [request("POST", "/invites/redeem", 404)]) } == "noSuchGroup")
        #expect(refusal { try bob.intent("group.join", ["groupId": .string(groupId)], effects: [request("POST", "/groups/\(groupId)/join", 404)]) } == "noSuchGroup", "a private group is joined by code only")

        try bob.lockRecorded()
        try alice.advance(minutes: 30)
        try bob.advance(minutes: 30)
        try bob.unlockRecorded()
        let board = try alice.intent("group.leaderboard", ["groupId": .string(groupId)], effects: [request("GET", "/groups/\(groupId)/leaderboard")])
        let entries = try JSONDecoder().decode([LeaderboardEntry].self, from: JSONEncoder().encode(board))
        #expect(entries.map(\.username) == ["bob", "alice"] && entries.map(\.rank) == [1, 2])
        #expect(entries[0].totalPoints == 34.01 && entries[0].longestStreak == 1800 && entries[0].status == "pending" && entries[0].flagged)

        try bob.intent("group.leave", ["groupId": .string(groupId)], effects: [request("DELETE", "/groups/\(groupId)/leave")])
        #expect(try bob.phone().groups == [])
        #expect(refusal { try bob.intent("group.leaderboard", ["groupId": .string(groupId)], effects: [request("GET", "/groups/\(groupId)/leaderboard", 403)]) } == "notMember")
        #expect(refusal { try bob.intent("group.leave", ["groupId": .string(groupId)], effects: [request("DELETE", "/groups/\(groupId)/leave", 403)]) } == "notMember")
    }

    /// Offline (seed 001, "Offline Capabilities": "Join group — Queued, syncs when online"): each
    /// join is queued and, when the network returns, sent in order before the sync; one the server
    /// refuses is shown in `refusedJoins`. Both were refused `offline` before.
    @Test func offlineJoinsAreQueuedAndSentWhenTheNetworkReturns() throws {
        let servers = Servers()
        let alice = try TestDevice.iPhone("alice", servers: servers)
        let bob = try TestDevice.iPhone("bob", servers: servers)
        let created = try alice.intent("group.create", ["name": "Family", "isPrivate": true], effects: [request("POST", "/groups", 201)])
        let code = try #require(created["code"]?.stringValue)
        try bob.send(.networkOffline, effects: [.network(online: false)])
        let queued = try bob.intent("group.join", ["code": .string(code)], effects: [offlineRequest("POST", "/invites/redeem")])
        #expect(queued == ["queued": ["code": .string(code)]])
        // The queue is tried first (still offline); the new join waits behind it.
        let second = try bob.intent("group.join", ["code": "NOPE42"], effects: [offlineRequest("POST", "/invites/redeem")])
        #expect(second == ["queued": ["code": "NOPE42"]])
        #expect(try bob.phone().queuedJoins == [.code(code), .code("NOPE42")] && bob.phone().groups.isEmpty)
        try bob.send(
            .networkOnline,
            effects: [.network(online: true), request("POST", "/invites/redeem"), request("POST", "/invites/redeem", 404), syncRequest])
        let phone = try bob.phone()
        #expect(phone.queuedJoins == nil && phone.groups.map(\.name) == ["Family"])
        #expect(phone.refusedJoins == [OfflineGroups.RefusedJoin(join: .code("NOPE42"), reason: "noSuchGroup")])
    }

    /// Offline (seed 001: "Leaderboards — Stale, shows cached data with timestamp"): the last
    /// leaderboard fetched, marked stale with the time it was fetched; none fetched yet, `offline`.
    /// It was refused `offline` before.
    @Test func offlineTheLastLeaderboardFetchedIsShownStale() throws {
        let device = try TestDevice.iPhone()
        let created = try device.intent("group.create", ["name": "Family"], effects: [request("POST", "/groups", 201)])
        let groupId = try #require(created["groupId"]?.stringValue)
        let path = "/groups/\(groupId)/leaderboard"
        try device.send(.networkOffline, effects: [.network(online: false)])
        #expect(refusal { try device.intent("group.leaderboard", ["groupId": .string(groupId)], effects: [offlineRequest("GET", path)]) } == "offline")
        try device.send(.networkOnline, effects: [.network(online: true), syncRequest])
        let fresh = try device.intent("group.leaderboard", ["groupId": .string(groupId)], effects: [request("GET", path)])
        #expect(fresh.arrayValue?.count == 1)
        try device.advance(minutes: 10)
        try device.send(.networkOffline, effects: [.network(online: false)])
        let stale = try device.intent("group.leaderboard", ["groupId": .string(groupId)], effects: [offlineRequest("GET", path)])
        #expect(stale == ["stale": true, "fetchedAt": "2026-01-05T09:00:00Z", "entries": fresh])
    }

    @Test func aPublicGroupIsJoinedByIdAndHoldsAtMostFifty() throws {
        let servers = Servers()
        let alice = try TestDevice.iPhone("alice", servers: servers)
        let created = try alice.intent("group.create", ["name": "Everyone", "description": "open to all"], effects: [request("POST", "/groups", 201)])
        let groupId = try #require(created["groupId"]?.stringValue)
        let joiner = try TestDevice.iPhone("joiner", servers: servers, triggers: [])
        joiner.exhaustivity = .off
        for member in 2...50 {
            try joiner.intent("account.signUp", ["username": .string("member\(member)")])
            try joiner.intent("group.join", ["groupId": .string(groupId)])
        }
        #expect(try BackendLook(alice).memberCount(of: groupId) == 50)
        try joiner.intent("account.signUp", ["username": "member51"])
        #expect(refusal { try joiner.intent("group.join", ["groupId": .string(groupId)]) } == "groupFull")
        #expect(try joiner.phone().groups == [])
    }

    @Test func joinTakesACodeOrAGroupIdNotBothNorNeither() throws {
        let device = try TestDevice.iPhone()
        #expect(throws: DeviceError.invalidArgument(field: "args.code", reason: "an invite code, or groupId of a public group")) {
            try device.intent("group.join")
        }
        #expect(throws: DeviceError.invalidArgument(field: "args.groupId", reason: "give code or groupId, not both")) {
            try device.intent("group.join", ["code": "ABC", "groupId": "x"])
        }
        #expect(throws: DeviceError.invalidArgument(field: "args.name", reason: "1 to 100 characters")) {
            try device.intent("group.create", ["name": ""])
        }
    }

    /// Three users in Tokyo, London (UTC) and Los Angeles, across the UTC week boundary. Each phone
    /// scores its own local week; the seed's leaderboard reads the current **UTC** week and matches
    /// each user's row by its local-Monday date (kept as written, docs/apps/thephone-backend.md,
    /// "Rules, with their source"): on Sunday evening UTC Tokyo's streak, already in Tokyo's next
    /// week, shows 0; after the UTC Monday it is the only one, Los Angeles still in its old week.
    @Test func aLeaderboardAcrossTimeZonesAndTheWeekBoundary() throws {
        let servers = Servers()
        let start = "2026-01-11T19:00:00Z"  // Sunday 19:00 UTC = Monday 04:00 Tokyo = Sunday 11:00 Los Angeles
        let alice = try TestDevice.iPhone("alice", servers: servers, start: start, timeZone: "Asia/Tokyo")
        let bob = try TestDevice.iPhone("bob", servers: servers, start: start, timeZone: "UTC")
        let carol = try TestDevice.iPhone("carol", servers: servers, start: start, timeZone: "America/Los_Angeles")
        let all = [alice, bob, carol]
        func advanceAll(minutes: Double) throws { for device in all { try device.advance(minutes: minutes) } }

        for device in all { try device.verifySetup() }  // 19:01 UTC; a 1-minute lock scores 0
        let groupId = try #require(try alice.intent("group.create", ["name": "Timezones"], effects: [request("POST", "/groups", 201)])["groupId"]?.stringValue)
        let code = try #require(try alice.phone().groups.first?.code)
        for device in [bob, carol] {
            try device.intent("group.join", ["code": .string(code)], effects: [request("POST", "/invites/redeem")])
        }

        for device in all { try device.lockRecorded() }
        try advanceAll(minutes: 30)
        try alice.unlockRecorded()  // 30 min, Monday 04:31 in Tokyo
        try advanceAll(minutes: 30)
        try bob.unlockRecorded()  // 60 min, Sunday 20:01 UTC
        try advanceAll(minutes: 60)
        try carol.unlockRecorded()  // 120 min, Sunday 13:01 in Los Angeles

        #expect(try alice.phone().week == WeeklyScore(weekStart: "2026-01-12", totalPoints: 34.01, streakCount: 1, longestStreak: 1800))
        #expect(try bob.phone().week == WeeklyScore(weekStart: "2026-01-05", totalPoints: 40.94, streakCount: 1, longestStreak: 3600))
        #expect(try carol.phone().week == WeeklyScore(weekStart: "2026-01-05", totalPoints: 47.87, streakCount: 1, longestStreak: 7200))

        func board(_ device: TestDevice) throws -> [String] {
            let answer = try device.intent(
                "group.leaderboard", ["groupId": .string(groupId)], effects: [request("GET", "/groups/\(groupId)/leaderboard")])
            return try JSONDecoder().decode([LeaderboardEntry].self, from: JSONEncoder().encode(answer)).map {
                "\($0.rank) \($0.username) \($0.totalPoints) \($0.status) \($0.flagged)"
            }
        }
        // Sunday 21:01 UTC: the UTC week of 2026-01-05; Tokyo's row is already 2026-01-12's.
        #expect(try board(alice) == ["1 carol 47.87 verified false", "2 bob 40.94 verified false", "3 alice 0.0 verified false"])

        try advanceAll(minutes: 3 * 60)  // Monday 00:01 UTC, Sunday 16:01 in Los Angeles
        #expect(try board(bob) == ["1 alice 34.01 verified false", "2 bob 0.0 verified false", "3 carol 0.0 verified false"])
        #expect(try bob.phone().week == WeeklyScore(weekStart: "2026-01-12", totalPoints: 0, streakCount: 0, longestStreak: 0))
        #expect(try carol.phone().week.weekStart == "2026-01-05" && carol.phone().week.totalPoints == 47.87)
        #expect(try BackendLook(alice).scores(of: "alice").map(\.weekStart) == ["2026-01-12"])
        #expect(try BackendLook(alice).scores(of: "carol").map(\.weekStart) == ["2026-01-05"])
    }
}
