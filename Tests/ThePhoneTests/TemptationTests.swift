import BuiltInApps
import ControlProtocol
import DeviceActors
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import ThePhone

/// Temptations (docs/apps/thephone.md, "Temptations"): pushes from the backend to a verified user
/// whose last synced event is a lock, from 5 minutes into the streak, on the backend's 5-minute
/// job; the app only writes the settings and asked for notification authorization at launch.
@Suite struct TemptationTests {
    private let temptationsSet: [Effect] = [request("PUT", "/temptations/settings")]

    @Test func aVerifiedUserInAStreakIsTemptedFromFiveMinutes() throws {
        let device = try TestDevice.iPhone()
        try device.verifySetup()  // 09:01
        try device.intent("setTemptations", ["intensity": "high"], effects: temptationsSet)
        #expect(try device.phone().temptations == .init(enabled: true, intensity: "high", quietHours: nil))
        try device.lockRecorded()  // 09:01
        try device.advance(minutes: 4, effects: [])  // the 09:05 job: a 4-minute streak is left alone
        // 09:10: a 9-minute streak, a curiosity push (text and kind from the backend's seeded draws)
        try device.advance(minutes: 5, effects: [.push(title: "The Phone", body: "Just checking in...", category: "curiosity")])
        let pushes = try device.notifications()
        #expect(pushes.count == 1)
        let push = try #require(pushes.first)
        #expect(push.title == "The Phone" && push.source == "push" && push.category == "curiosity" && !push.body.isEmpty)
        #expect(push.t == 600)
    }

    /// The seed's consequence: the unlock automation alone never records a lock, so the backend's
    /// last event is never a lock and no temptation is ever sent.
    @Test func theUnlockAutomationAloneIsNeverTempted() throws {
        let device = try TestDevice.iPhone(triggers: [.unlock])
        try device.send(.lock, effects: [locked])
        try device.intent("setup.begin", effects: [setupSignpost("awaitingVerification")])
        try device.send(.unlock, effects: [unlocked, ran(.unlock), recorded(.unlock), setupSignpost("verified"), verifiedReport, syncRequest])
        try device.intent("setTemptations", ["intensity": "high"], effects: temptationsSet)
        try device.send(.lock, effects: [locked])
        try device.advance(hours: 6, effects: [])
        #expect(try device.notifications().isEmpty)
    }

    @Test func anUnverifiedUserIsNeverTempted() throws {
        let device = try TestDevice.iPhone()
        try device.intent("setTemptations", ["intensity": "high"], effects: temptationsSet)
        try device.lockRecorded()
        try device.advance(hours: 3, effects: [])
    }

    @Test func intensityOffDisablesTheRow() throws {
        let device = try TestDevice.iPhone()
        try device.verifySetup()
        try device.intent("setTemptations", ["intensity": "off", "quietHours": ["start": "22:00", "end": "07:00"]], effects: temptationsSet)
        #expect(try device.appState()["temptations"] == ["enabled": false, "intensity": "off", "quietHours": ["start": "22:00", "end": "07:00"]])
        #expect(try BackendLook(device).temptationsEnabled(of: "alice") == false)
        try device.lockRecorded()
        try device.advance(hours: 2, effects: [])
    }

    /// Quiet hours in the user's zone: nothing sent inside them; the first job after them tempts.
    @Test func quietHoursHoldTheTemptationsBack() throws {
        let device = try TestDevice.iPhone(timeZone: "Europe/Paris")  // 10:00 local at the start
        try device.verifySetup()
        try device.intent(
            "setTemptations", ["intensity": "low", "quietHours": ["start": "10:00", "end": "11:00"]], effects: temptationsSet)
        try device.lockRecorded()  // 10:01 local
        try device.advance(minutes: 58, effects: [])
        #expect(try device.notifications().isEmpty)
        try device.advance(minutes: 1, effects: [.push(title: "The Phone", body: "Update:", category: "fake_urgency")])  // 11:00 local
        #expect(try device.notifications().map(\.t) == [3600])
    }

    /// Asked at launch: a user who said no sees none (traced suppressed).
    @Test func deniedNotificationsSuppressThePush() throws {
        var config = DeviceConfig()
        config.notificationPermission = .deny
        let device = try TestDevice(app: .thePhone, config: config, name: "alice")
        try device.intent("installAutomation", ["trigger": "lock"], effects: [.automation(trigger: "lock", shortcut: "RecordLockIntent", outcome: "installed")])
        try device.intent("installAutomation", effects: [.automation(trigger: "unlock", shortcut: "RecordUnlockIntent", outcome: "installed")])
        try device.verifySetup()
        try device.intent("setTemptations", ["intensity": "high"], effects: temptationsSet)
        try device.lockRecorded()
        try device.advance(
            minutes: 10, effects: [.notificationSuppressed(title: "The Phone", body: "Just checking in...", reason: "denied")])
        #expect(try device.notifications().isEmpty)
    }

    @Test func setTemptationsRefusesWhatItCannotSend() throws {
        let device = try TestDevice.iPhone()
        #expect(throws: DeviceError.invalidArgument(field: "args.intensity", reason: "one of off, low, medium, high")) {
            try device.intent("setTemptations", ["intensity": "extreme"])
        }
        #expect(throws: DeviceError.invalidArgument(field: "args.quietHours.start", reason: "HH:MM, 00:00 to 23:59")) {
            try device.intent("setTemptations", ["intensity": "low", "quietHours": ["start": "24:00", "end": "07:00"]])
        }
        #expect(throws: DeviceError.invalidArgument(field: "args.enabled", reason: "intensity off means disabled")) {
            try device.intent("setTemptations", ["intensity": "off", "enabled": true])
        }
        #expect(try device.phone().temptations == nil)
    }
}
