import ControlProtocol
import DeviceActors
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import ThePhone

/// How unlocks reach the iOS client (docs/apps/thephone.md, "How unlocks arrive on iOS"): only
/// through a Shortcuts automation that runs the seed's `RecordUnlockIntent` (and the project's
/// `RecordLockIntent`), each record stored and synced at once.
@Suite struct IOSTrackingTests {
    /// The seed's consequence: with its `unlock` automation alone no lock is ever recorded, so
    /// every streak is unpaired and every score is 0, on the phone and on the server.
    @Test func theSeedsUnlockAutomationAloneScoresNothing() throws {
        let device = try TestDevice.iPhone(triggers: [.unlock])
        try device.send(.lock, effects: [locked])
        try device.advance(minutes: 30)
        try device.unlockRecorded()
        try device.send(.lock, effects: [locked])
        try device.advance(hours: 8)
        try device.unlockRecorded()
        let state = try device.phone()
        #expect(state.events == 2 && state.unsynced == 0)
        #expect(state.week == WeeklyScore(weekStart: "2026-01-05", totalPoints: 0, streakCount: 0, longestStreak: 0))
        let backend = try BackendLook(device)
        #expect(try backend.events(of: "alice").map(\.type) == ["unlock", "unlock"])
        #expect(try backend.scores(of: "alice") == [.init(weekStart: "2026-01-05", totalPoints: 0, streakCount: 0, longestStreak: 0)])
    }

    /// With the `lock` automation too (project choice), a 30-minute lock scores the seed's 34.01.
    @Test func withTheLockAutomationAThirtyMinuteLockScores3401() throws {
        let device = try TestDevice.iPhone()
        try device.lockRecorded()
        try device.advance(minutes: 30)
        try device.unlockRecorded()
        let state = try device.phone()
        #expect(state.week == WeeklyScore(weekStart: "2026-01-05", totalPoints: 34.01, streakCount: 1, longestStreak: 1800))
        #expect(state.events == 2 && state.unsynced == 0)
        #expect(state.lastUnlockAt == "2026-01-05T09:30:00Z" && state.lastSync == "2026-01-05T09:30:00Z")
        #expect(
            try BackendLook(device).scores(of: "alice")
                == [.init(weekStart: "2026-01-05", totalPoints: 34.01, streakCount: 1, longestStreak: 1800)])
    }

    @Test func underAMinuteScoresNothingAnd61SecondsScores017() throws {
        let device = try TestDevice.iPhone()
        try device.lockRecorded()
        try device.advance(seconds: 59)
        try device.unlockRecorded()
        #expect(try device.phone().week.totalPoints == 0)
        try device.lockRecorded()
        try device.advance(seconds: 61)
        try device.unlockRecorded()
        #expect(try device.phone().week == WeeklyScore(weekStart: "2026-01-05", totalPoints: 0.17, streakCount: 1, longestStreak: 61))
    }

    /// Seed gap kept (`preceding_locks`): lock, unlock, unlock scores twice.
    @Test func aSecondUnlockPairsWithTheSameLockAgain() throws {
        let device = try TestDevice.iPhone(triggers: [.unlock])
        try device.intent(
            "installAutomation", ["trigger": "lock"],
            effects: [.automation(trigger: "lock", shortcut: "RecordLockIntent", outcome: "installed")])
        try device.lockRecorded()
        try device.intent(
            "removeAutomation", ["trigger": "lock"], effects: [.automation(trigger: "lock", shortcut: "RecordLockIntent", outcome: "removed")])
        try device.advance(minutes: 30)
        try device.unlockRecorded()
        try device.send(.lock, effects: [locked])
        try device.advance(minutes: 30)
        try device.unlockRecorded()
        #expect(try device.phone().week == WeeklyScore(weekStart: "2026-01-05", totalPoints: 74.95, streakCount: 2, longestStreak: 3600))
        #expect(try BackendLook(device).scores(of: "alice").first?.totalPoints == 74.95)
    }

    /// The seed's first "common issue": "'Ask Before Running' is still enabled" — iOS waits for a
    /// tap that never comes, and nothing is recorded.
    @Test func askBeforeRunningRecordsNothing() throws {
        let device = try TestDevice.iPhone(askBeforeRunning: true)
        try device.send(.lock, effects: [locked, .automation(trigger: "lock", shortcut: "RecordLockIntent", outcome: "askBeforeRunning")])
        try device.advance(minutes: 30)
        try device.send(
            .unlock, effects: [unlocked, .automation(trigger: "unlock", shortcut: "RecordUnlockIntent", outcome: "askBeforeRunning")])
        let state = try device.phone()
        #expect(state.events == 0 && state.lastUnlockAt == nil)
        #expect(state.automations == [.init(trigger: "unlock", askBeforeRunning: true), .init(trigger: "lock", askBeforeRunning: true)])
    }

    /// The user deleted the shortcut (what the health monitor exists to notice).
    @Test func removingTheAutomationStopsTheRecords() throws {
        let device = try TestDevice.iPhone(triggers: [.unlock])
        try device.intent(
            "removeAutomation", effects: [.automation(trigger: "unlock", shortcut: "RecordUnlockIntent", outcome: "removed")])
        try device.send(.lock, effects: [locked])
        try device.send(.unlock, effects: [unlocked])
        #expect(try device.phone().events == 0)
        #expect(try device.phone().automations == [])
        try device.intent("removeAutomation", effects: [])
    }

    /// A lock or unlock that changes nothing (already unlocked) runs no automation.
    @Test func onlyAnUnlockOfALockedDeviceRunsTheAutomation() throws {
        let device = try TestDevice.iPhone()
        try device.send(.unlock, effects: [unlocked])
        try device.lockRecorded()
        try device.send(.lock, effects: [locked])
        #expect(try device.phone().events == 1)
    }

    /// The App Shortcut runs in the app's process, which the system launches when needed.
    @Test func aShortcutLaunchesATerminatedApp() throws {
        let device = try TestDevice.iPhone()
        try device.send(.appTerminate(app: thePhone), effects: [.appTerminate])
        try device.send(.lock, effects: [locked, ran(.lock), .appLaunch(reason: "shortcut"), recorded(.lock), syncRequest])
        #expect(try device.phone().events == 1)
    }

    /// `device.state.app` as docs/apps/thephone.md#devicestateapp shows it, every key present.
    @Test func theDashboardHasEveryFieldOfTheContract() throws {
        let device = try TestDevice.iPhone()
        let fresh = try device.appState()
        #expect(
            fresh
                == [
                    "user": "alice",
                    "automations": [["trigger": "unlock", "askBeforeRunning": false], ["trigger": "lock", "askBeforeRunning": false]],
                    "setup": ["state": "notStarted"], "trackingHealth": .null, "lastUnlockAt": .null, "events": 0, "unsynced": 0,
                    "lastSync": .null,
                    "week": ["weekStart": "2026-01-05", "totalPoints": 0, "streakCount": 0, "longestStreak": 0],
                    "groups": [], "temptations": .null,
                ])
        try device.verifySetup()
        try device.send(.appOpen(app: thePhone), effects: [opened, healthSignpost(nil), statusReport(), syncRequest])
        let used = try device.appState()
        #expect(used["setup"] == ["state": "verified", "verifiedAt": "2026-01-05T09:01:00Z"])
        #expect(
            used["trackingHealth"] == ["healthy": true, "issue": .null, "lastCheck": "2026-01-05T09:01:00Z"])
        #expect(used["lastUnlockAt"] == "2026-01-05T09:01:00Z" && used["events"] == 2 && used["unsynced"] == 0)
        #expect(used["lastSync"] == "2026-01-05T09:01:00.001Z", "the second sync at 09:01 runs 1 ms after the first on the server")
        #expect(used["week"] == ["weekStart": "2026-01-05", "totalPoints": 0, "streakCount": 0, "longestStreak": 0], "a 60-second lock scores 0")
    }

    /// The unknown `trigger` is refused by name.
    @Test func installAutomationRefusesAnUnknownTrigger() throws {
        let device = try TestDevice.iPhone(triggers: [])
        #expect(throws: DeviceError.invalidArgument(field: "args.trigger", reason: "one of unlock, lock")) {
            try device.intent("installAutomation", ["trigger": "screenOn"])
        }
    }
}

extension TestDevice {
    func advance(hours: Double, effects: [Effect] = []) throws {
        try advance(seconds: hours * 3600, effects: effects)
    }
}
