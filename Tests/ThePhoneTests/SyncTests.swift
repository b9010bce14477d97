import ControlProtocol
import DeviceActors
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import ThePhone

/// The iOS client's sync (docs/apps/thephone.md, "Sync"; the rules of docs/apps/thephone-backend.md
/// as a phone sees them): after each record, on becoming active, on `network.online`, and on the
/// intent, which refuses `offline`.
@Suite struct SyncTests {
    @Test func offlineTheSyncIsRefusedAndTheRecordsWaitForTheNetwork() throws {
        let device = try TestDevice.iPhone()
        try device.send(.networkOffline, effects: [.network(online: false)])
        try device.send(.lock, effects: [locked, ran(.lock), recorded(.lock), syncOffline])
        try device.advance(minutes: 30)
        try device.send(.unlock, effects: [unlocked, ran(.unlock), recorded(.unlock), syncOffline])
        #expect(refusal { try device.intent("sync", effects: [syncOffline]) } == "offline")
        #expect(try device.phone().unsynced == 2 && device.phone().lastSync == nil)
        #expect(try device.phone().week.totalPoints == 34.01, "the phone scores what it holds")
        // NWPathMonitor hears the network come back: a sync.
        try device.send(.networkOnline, effects: [.network(online: true), syncRequest])
        #expect(try device.phone().unsynced == 0 && device.phone().lastSync == "2026-01-05T09:30:00Z")
        #expect(try BackendLook(device).events(of: "alice").map(\.type) == ["lock", "unlock"])
    }

    @Test func theSyncIntentAnswersTheDashboard() throws {
        let device = try TestDevice.iPhone()
        let answer = try device.intent("sync", effects: [syncRequest])
        #expect(answer["lastSync"] == "2026-01-05T09:00:00Z" && answer["unsynced"] == 0)
    }

    /// Seed gap kept (docs/apps/thephone.md, "Seed gaps kept"): the backend confirms only what it
    /// stored, so an event older than 7 days by the backend's clock stays unsynced on the phone for
    /// ever.
    @Test func anEventTheBackendRejectsStaysUnsyncedForEver() throws {
        let servers = Servers()
        let late = try TestDevice.iPhone("late", servers: servers)
        let ahead = try TestDevice.iPhone("ahead", servers: servers)
        try ahead.advance(hours: 8 * 24)
        try late.lockRecorded()
        try late.intent("sync", effects: [syncRequest])
        #expect(try late.phone().unsynced == 1 && late.phone().events == 1)
        #expect(try BackendLook(late).events(of: "late").isEmpty)
    }

    /// A second device of the user (`account.signIn`) pulls the events the first one synced
    /// (`newEvents`), and scores them locally.
    @Test func aSecondDeviceOfTheUserPullsTheFirstsEvents() throws {
        let servers = Servers()
        let phone = try TestDevice.iPhone("alice", servers: servers)
        let pad = try TestDevice.iPhone("alice-ipad", servers: servers)
        try pad.intent("account.signIn", ["username": "alice"], effects: switchedUser())
        #expect(try pad.phone().user == "alice")
        try phone.advance(minutes: 1)
        try pad.advance(minutes: 1)
        try phone.lockRecorded()
        try phone.advance(minutes: 30)
        try phone.unlockRecorded()
        try pad.advance(minutes: 30)
        try pad.intent("sync", effects: [syncRequest])
        let state = try pad.phone()
        #expect(state.events == 2 && state.unsynced == 0 && state.lastUnlockAt == "2026-01-05T09:31:00Z")
        #expect(state.week == WeeklyScore(weekStart: "2026-01-05", totalPoints: 34.01, streakCount: 1, longestStreak: 1800))
        // The phone does not pull its own events back.
        try phone.intent("sync", effects: [syncRequest])
        #expect(try phone.phone().events == 2)
    }

    /// Two phones of one user at one virtual instant: the pad syncs at 09:00 (its `lastSync`),
    /// then the phone records a lock and syncs at 09:00 too. The backend runs the second sync
    /// 1 ms after the first (docs/apps/thephone-backend.md, "Sync instants"), so the lock is
    /// created after the pad's `lastSync` and the pad pulls it, as from a real server.
    @Test func anEventStoredAtAnotherDevicesLastSyncInstantIsPulled() throws {
        let servers = Servers()
        let phone = try TestDevice.iPhone("alice", servers: servers)
        let pad = try TestDevice.iPhone("alice-ipad", servers: servers)
        try pad.intent("account.signIn", ["username": "alice"], effects: switchedUser())
        try phone.lockRecorded()
        try phone.advance(minutes: 1)
        try pad.advance(minutes: 1)
        try pad.intent("sync", effects: [syncRequest])
        #expect(try pad.phone().events == 1)
        try phone.intent("sync", effects: [syncRequest])
        #expect(try phone.phone().events == 1, "the phone does not pull its own lock back")
    }

    @Test func signedOutNothingIsSyncedAndTheIntentIsRefused() throws {
        let device = try TestDevice.iPhone()
        try device.intent("data.delete", effects: [request("DELETE", "/users/me")])
        try device.send(.lock, effects: [locked, ran(.lock), recorded(.lock)])
        #expect(refusal { try device.intent("sync") } == "notSignedIn")
        try device.send(.unlock, effects: [unlocked, ran(.unlock), recorded(.unlock)])
        try device.send(.appOpen(app: thePhone), effects: [opened, healthSignpost("neverVerified")])
        #expect(try device.phone().unsynced == 2)
    }
}

/// Two phones never draw the same `UUID()`: `platform.uuid()` is the world's seeded generator
/// salted with the device's name, so two devices of one user created with the same seed still
/// give their events distinct ids, and the backend stores both (without the salt it took the
/// second's for duplicates of the first's, `ON CONFLICT (user_id, client_id) DO NOTHING`).
@Suite struct SameSeedTests {
    @Test func twoDevicesOfOneUserWithTheSameSeedDrawDistinctEventIds() throws {
        let servers = Servers()
        let phone = try TestDevice.iPhone("alice", servers: servers, seed: 7)
        let pad = try TestDevice.iPhone("alice-ipad", servers: servers, seed: 7)
        try pad.intent("account.signIn", ["username": "alice"], effects: switchedUser())
        try phone.lockRecorded()
        try pad.lockRecorded()
        #expect(try pad.phone().unsynced == 0)
        let events = try BackendLook(phone).events(of: "alice")
        #expect(events.count == 2)
    }
}
