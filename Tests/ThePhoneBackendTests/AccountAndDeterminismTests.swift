import Foundation
import Testing

@testable import ThePhoneBackend

/// Accounts (docs/apps/thephone.md, "Accounts") and determinism (docs/apps/thephone-backend.md,
/// "Determinism"): the same calls, the same bytes.
@Suite struct AccountAndDeterminismTests {
    @Test func accountsAndDevices() throws {
        var backend = try PhoneBackend.with([("ann", "UTC")])
        #expect(throws: PhoneBackendError.usernameTaken) {
            try backend.register(username: "ann", device: "x", timezone: "UTC", platform: "ios", now: monday)
        }
        #expect(throws: PhoneBackendError.unknownTimeZone) {
            try backend.register(username: "bob", device: "bob", timezone: "Mars/Olympus", platform: "ios", now: monday)
        }
        #expect(throws: PhoneBackendError.noSuchUser) { try backend.login(username: "bob", device: "bob") }
        try backend.register(username: "bob", device: "bob", timezone: "Asia/Tokyo", platform: "android", now: monday)
        try backend.login(username: "ann", device: "ipad")
        #expect(backend.user(named: "ann")?.devices == ["ann", "ipad"])
        try backend.login(username: "bob", device: "ipad")
        #expect(backend.allUsers.map(\.devices) == [["ann"], ["bob", "ipad"]])
        backend.logout(device: "ipad")
        #expect(backend.user(signedInOn: "ipad") == nil)
        #expect(backend.user(named: "bob")?.trackingStatus == .pending)
    }

    /// A day of three users: sign-ups, a group, syncs, temptations, a leaderboard, jobs.
    private func script() throws -> PhoneBackend {
        var backend = try PhoneBackend.with([("ann", "Europe/Berlin"), ("bob", "America/New_York"), ("cho", "Asia/Tokyo")])
        let created = try backend.createGroup(username: "ann", name: "Friends", now: monday)
        try backend.joinGroup(username: "bob", code: created.code, now: monday + minute)
        try backend.joinGroup(username: "cho", groupId: created.groupId, now: monday + minute)
        for (n, name) in ["ann", "bob", "cho"].enumerated() {
            try backend.sync(
                name, [event(2 * n, .lock, monday + Int64(n) * hour), event(2 * n + 1, .unlock, monday + Int64(n + 1) * hour)],
                now: monday + 4 * hour)
        }
        try backend.updateTrackingStatus(username: "ann", status: .verified)
        try backend.updateTemptationSettings(
            username: "ann", enabled: true, intensity: .high, quietStart: "22:00", quietEnd: "07:00", now: monday)
        try backend.sync("ann", [event(10, .lock, monday + 4 * hour)], now: monday + 4 * hour)
        let jobs = backend.advanceClock(to: monday + day)
        #expect(jobs.contains { if case .processTemptations = $0 { true } else { false } })
        _ = try backend.groupLeaderboard(username: "bob", groupId: created.groupId, now: monday + day)
        return backend
    }

    @Test func theSameCallsGiveByteIdenticalState() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let first = try encoder.encode(try script())
        let second = try encoder.encode(try script())
        #expect(first == second)
        let decoded = try JSONDecoder().decode(PhoneBackend.self, from: first)
        #expect(decoded == (try script()))
        #expect(try encoder.encode(decoded) == first)
    }
}
