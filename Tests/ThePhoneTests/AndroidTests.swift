import ControlProtocol
import DeviceActors
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import ThePhone

/// The seed's Android client (docs/apps/thephone.md, "The Android client"): the manifest receiver
/// records every unlock (`USER_PRESENT`) and lock (`SCREEN_OFF`) from a coroutine, source
/// `automatic`; each unlock enqueues the `SyncWorker` (REPLACE, network, backoff from 1 minute); a
/// lock is not synced until the next unlock's work.
@Suite struct AndroidTests {
    @Test func theReceiverRecordsEveryLockAndUnlockAndEachUnlockSyncs() throws {
        let device = try TestDevice.androidPhone()
        try device.screenOff()
        #expect(try device.phone().unsynced == 1, "the seed schedules no sync after a lock")
        try device.advance(minutes: 30)
        try device.userPresent()
        let state = try device.phone()
        #expect(state.events == 2 && state.unsynced == 0 && state.lastSync == "2026-01-05T09:30:00Z")
        #expect(state.week == WeeklyScore(weekStart: "2026-01-05", totalPoints: 34.01, streakCount: 1, longestStreak: 1800))
        #expect(state.automations == nil && state.setup == nil && state.trackingHealth == nil)
        #expect(try BackendLook(device).scores(of: "bob").first?.totalPoints == 34.01)
    }

    /// `device.state.app` on Android: the iOS one without `automations` and `setup`.
    @Test func theDashboardHasNoAutomationsNorSetup() throws {
        let device = try TestDevice.androidPhone()
        #expect(
            try device.appState()
                == [
                    "user": "bob", "trackingHealth": .null, "lastUnlockAt": .null, "events": 0, "unsynced": 0, "lastSync": .null,
                    "week": ["weekStart": "2026-01-05", "totalPoints": 0, "streakCount": 0, "longestStreak": 0], "groups": [],
                    "temptations": .null,
                ])
    }

    /// Offline the work waits for the network; a second unlock replaces it (REPLACE); online,
    /// it runs. The `sync` intent refuses `offline` and enqueues nothing.
    @Test func offlineTheWorkWaitsAndIsReplaced() throws {
        let device = try TestDevice.androidPhone()
        try device.send(.networkOffline, effects: [.network(online: false)])
        try device.send(.unlock, effects: [unlocked])
        try device.screenOff()
        try device.send(.unlock, effects: [unlocked, recorded(.unlock, .automatic), work("enqueued"), work("waitingForNetwork")])
        try device.screenOff()
        try device.send(
            .unlock,
            effects: [unlocked, recorded(.unlock, .automatic), work("cancelled"), work("enqueued"), work("waitingForNetwork")])
        #expect(refusal { try device.intent("sync", effects: []) } == "offline")
        #expect(try device.phone().unsynced == 4)
        try device.send(.networkOnline, effects: [.network(online: true), work("started"), syncRequest, work("succeeded")])
        #expect(try device.phone().unsynced == 0)
    }

    /// The seed's `catch (e: Exception)`: `retry` while `runAttemptCount < 3`, then `failure`;
    /// the backoff doubles from a minute. (Here the server refuses: the device was signed out.)
    @Test func aFailingSyncRetriesThreeTimesWithBackoffThenFails() throws {
        let device = try TestDevice.androidPhone()
        try device.intent("data.delete", effects: [request("DELETE", "/users/me")])
        let refused = request("POST", "/events/sync", 401)
        try device.send(.unlock, effects: [unlocked])
        try device.screenOff()
        try device.send(
            .unlock,
            effects: [unlocked, recorded(.unlock, .automatic), work("enqueued"), work("started"), refused, work("retry", attempt: 1)])
        try device.advance(seconds: 59, effects: [])
        try device.advance(seconds: 1, effects: [work("started", attempt: 1), refused, work("retry", attempt: 2)])
        try device.advance(seconds: 120, effects: [work("started", attempt: 2), refused, work("retry", attempt: 3)])
        try device.advance(seconds: 240, effects: [work("started", attempt: 3), refused, work("failed", attempt: 3)])
        try device.advance(hours: 1, effects: [])
        #expect(try device.phone().unsynced == 2)
    }

    @Test func theSyncIntentEnqueuesTheWork() throws {
        let device = try TestDevice.androidPhone()
        // Nothing unsynced: the worker answers success without asking the server (the seed).
        let answer = try device.intent("sync", effects: [work("enqueued"), work("started"), work("succeeded")])
        #expect(answer == ["enqueued": "sync"])
        try device.screenOff()
        try device.intent("sync", effects: workRunsOnce)
        #expect(try device.phone().unsynced == 0)
    }

    @Test func theIOSOnlyIntentsAreUnknownOnAndroid() throws {
        let device = try TestDevice.androidPhone()
        for intent in ["installAutomation", "removeAutomation", "setup.begin"] {
            #expect {
                try device.intent(intent)
            } throws: { error in
                guard case .unknownIntent(let name, let known) = error as? DeviceError else { return false }
                return name == intent && !known.contains(intent) && known.contains("sync")
            }
        }
    }

    /// The receiver is the system's: it starts a terminated app, and a relaunch does not declare
    /// a second one (each event recorded once).
    @Test func aBroadcastStartsATerminatedAppAndRecordsOnce() throws {
        let device = try TestDevice.androidPhone()
        try device.send(.appTerminate(app: thePhone), effects: [.appTerminate])
        try device.send(.lock, effects: [locked, .appLaunch(reason: "broadcast"), recorded(.lock, .automatic)])
        try device.advance(minutes: 30)
        try device.userPresent()
        #expect(try device.phone().events == 2)
    }

    /// The seed's worker pulls only when it has something to push: a device signed in to a user
    /// with events elsewhere sees them with its first unlock's sync. (Another seed: devices of
    /// one user with the same seed make the same event ids, see `SyncTests`.)
    @Test func theWorkerPullsOnlyWithSomethingToPush() throws {
        let servers = Servers()
        let phone = try TestDevice.iPhone("alice", servers: servers)
        let android = try TestDevice.androidPhone("alice-pixel", servers: servers, seed: 2)
        try android.intent("account.signIn", ["username": "alice"], effects: [request("POST", "/auth/login"), request("GET", "/groups")])
        try phone.advance(minutes: 1)
        try android.advance(minutes: 1)
        try phone.lockRecorded()
        try phone.advance(minutes: 30)
        try phone.unlockRecorded()
        try android.advance(minutes: 30)
        try android.intent("sync", effects: [work("enqueued"), work("started"), work("succeeded")])
        #expect(try android.phone().events == 0)
        try android.screenOff()
        try android.advance(minutes: 1)
        try android.userPresent()
        let state = try android.phone()
        #expect(state.events == 4 && state.unsynced == 0)
        #expect(state.week.totalPoints == 34.01, "the iPhone's streak; its own minute scores 0")
    }

    /// One iOS user with the seed's automation and one Android user, living the same day: the
    /// Android user scores, the iOS user (unlocks only) does not. The iOS user verified; the
    /// Android user stays `pending` (the seed's Android client never reports a tracking status),
    /// so it is flagged.
    @Test func sameHabitsOnIOSAndAndroid() throws {
        let servers = Servers()
        let iPhone = try TestDevice.iPhone("ios-user", servers: servers, triggers: [.unlock])
        let android = try TestDevice.androidPhone("android-user", servers: servers)
        let groupId = try #require(try iPhone.intent("group.create", ["name": "Both"], effects: [request("POST", "/groups", 201)])["groupId"]?.stringValue)
        try android.intent("group.join", ["groupId": .string(groupId)], effects: [request("POST", "/groups/\(groupId)/join")])

        for (minutes, first) in [(30.0, true), (120.0, false)] {
            try iPhone.send(.lock, effects: [locked])
            try android.screenOff()
            try iPhone.advance(minutes: minutes)
            try android.advance(minutes: minutes)
            if first { try iPhone.intent("setup.begin", effects: [setupSignpost("awaitingVerification")]) }
            try iPhone.send(
                .unlock,
                effects: [unlocked, ran(.unlock), recorded(.unlock)] + (first ? [setupSignpost("verified"), verifiedReport] : [])
                    + [syncRequest])
            try android.userPresent()
        }
        #expect(try android.phone().week == WeeklyScore(weekStart: "2026-01-05", totalPoints: 81.88, streakCount: 2, longestStreak: 7200))
        #expect(try iPhone.phone().week == WeeklyScore(weekStart: "2026-01-05", totalPoints: 0, streakCount: 0, longestStreak: 0))
        let answer = try iPhone.intent(
            "group.leaderboard", ["groupId": .string(groupId)], effects: [request("GET", "/groups/\(groupId)/leaderboard")])
        let board = try JSONDecoder().decode([LeaderboardEntry].self, from: JSONEncoder().encode(answer))
        #expect(board.map { "\($0.username) \($0.totalPoints) \($0.status) \($0.flagged)" } == [
            "android-user 81.88 pending true", "ios-user 0.0 verified false",
        ])
    }
}
