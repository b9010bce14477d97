import ControlProtocol
import DeviceActors
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import ThePhone

/// The seed's setup verification (`SetupManager`; docs/apps/thephone.md, "Setup and tracking
/// health"): a 2-minute window after "I've completed setup"; an unlock inside it verifies at once
/// (and the backend hears `verified`), none fails it with `noEventReceived`.
@Suite struct SetupTests {
    @Test func anUnlockInsideTheWindowVerifiesAtOnceAndTellsTheBackend() throws {
        let device = try TestDevice.iPhone()
        #expect(try BackendLook(device).trackingStatus(of: "alice") == "pending")
        try device.verifySetup()
        let setup = try #require(try device.phone().setup)
        #expect(setup == .init(state: "verified", reason: nil, verifiedAt: "2026-01-05T09:01:00Z"))
        #expect(try BackendLook(device).trackingStatus(of: "alice") == "verified")
        try device.advance(minutes: 5, effects: [])
    }

    /// The seed's own automation (unlock only) verifies too: the unlock is what the window waits for.
    @Test func theSeedsUnlockAutomationVerifies() throws {
        let device = try TestDevice.iPhone(triggers: [.unlock])
        try device.send(.lock, effects: [locked])
        try device.intent("setup.begin", effects: [setupSignpost("awaitingVerification")])
        try device.advance(seconds: 119)
        try device.send(
            .unlock, effects: [unlocked, ran(.unlock), recorded(.unlock), setupSignpost("verified"), verifiedReport, syncRequest])
        #expect(try device.phone().setup?.state == "verified")
    }

    @Test func noUnlockWithinTwoMinutesFailsWithNoEventReceived() throws {
        let device = try TestDevice.iPhone()
        try device.intent("setup.begin", effects: [setupSignpost("awaitingVerification")])
        #expect(try device.phone().setup == .init(state: "awaitingVerification", reason: nil, verifiedAt: nil))
        try device.advance(seconds: 119, effects: [])
        try device.advance(seconds: 1, effects: [setupSignpost("failed", reason: "noEventReceived")])
        #expect(try device.phone().setup == .init(state: "failed", reason: "noEventReceived", verifiedAt: nil))
        #expect(try BackendLook(device).trackingStatus(of: "alice") == "pending")
        // An unlock after the window does not verify.
        try device.lockRecorded()
        try device.unlockRecorded()
        #expect(try device.phone().setup?.state == "failed")
    }

    /// The seed's first "common issue": 'Ask Before Running' still on — the automation waits,
    /// nothing is recorded, the window ends failed.
    @Test func askBeforeRunningFailsTheVerification() throws {
        let device = try TestDevice.iPhone(askBeforeRunning: true)
        try device.intent("setup.begin", effects: [setupSignpost("awaitingVerification")])
        try device.send(.lock, effects: [locked, .automation(trigger: "lock", shortcut: "RecordLockIntent", outcome: "askBeforeRunning")])
        try device.send(
            .unlock, effects: [unlocked, .automation(trigger: "unlock", shortcut: "RecordUnlockIntent", outcome: "askBeforeRunning")])
        try device.advance(minutes: 2, effects: [setupSignpost("failed", reason: "noEventReceived")])
    }

    /// "Try again": a new window after a failure verifies.
    @Test func aSecondAttemptAfterAFailureVerifies() throws {
        let device = try TestDevice.iPhone()
        try device.intent("setup.begin", effects: [setupSignpost("awaitingVerification")])
        try device.advance(minutes: 2, effects: [setupSignpost("failed", reason: "noEventReceived")])
        try device.verifySetup()
        #expect(try device.phone().setup?.verifiedAt == "2026-01-05T09:03:00Z")
    }

    /// Beginning again while a window is open starts a new one (the old timer is cancelled).
    @Test func beginningAgainRestartsTheWindow() throws {
        let device = try TestDevice.iPhone()
        try device.intent("setup.begin", effects: [setupSignpost("awaitingVerification")])
        try device.advance(seconds: 90)
        try device.intent("setup.begin", effects: [])
        try device.advance(seconds: 119, effects: [])
        try device.advance(seconds: 1, effects: [setupSignpost("failed", reason: "noEventReceived")])
    }

    /// The window lives in the app's memory (the seed's `@StateObject`): when the system ends the
    /// process, its timer is lost and setup is back to `notStarted`.
    @Test func terminatingTheAppLosesAnOpenWindow() throws {
        let device = try TestDevice.iPhone()
        try device.intent("setup.begin", effects: [setupSignpost("awaitingVerification")])
        try device.send(.appTerminate(app: thePhone), effects: [setupSignpost("notStarted"), .appTerminate])
        try device.advance(minutes: 2, effects: [.timerLost(label: "setupVerification", reason: "terminated")])
        #expect(try device.phone().setup?.state == "notStarted")
    }

    /// A reboot ends every process, the app's too: the window's timer is lost, as after
    /// `app.terminate` (it once survived the reboot and failed the setup 2 minutes later).
    @Test func aRebootLosesAnOpenWindow() throws {
        let device = try TestDevice.iPhone()
        try device.intent("setup.begin", effects: [setupSignpost("awaitingVerification")])
        try device.send(
            .reboot, effects: [setupSignpost("notStarted"), .appTerminate, .appState(locked: true, foregroundApp: nil, shieldShown: false)])
        try device.advance(minutes: 2, effects: [.timerLost(label: "setupVerification", reason: "terminated")])
        #expect(try device.phone().setup?.state == "notStarted")
    }

    /// A verification is kept (the seed's `saveVerificationState()`), even when the process ends.
    @Test func aVerificationOutlivesTheProcess() throws {
        let device = try TestDevice.iPhone()
        try device.verifySetup()
        try device.send(.appTerminate(app: thePhone), effects: [.appTerminate])
        try device.send(
            .appOpen(app: thePhone), effects: [.appLaunch(reason: "open"), opened, healthSignpost(nil), statusReport(), syncRequest])
        #expect(try device.phone().setup?.state == "verified")
    }
}
