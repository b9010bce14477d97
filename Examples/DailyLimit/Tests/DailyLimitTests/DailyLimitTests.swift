import DeviceTesting
import SimulatediOS
import Testing

@testable import DailyLimit

/// DailyLimit on a simulated device: each step lists every effect it causes (the harness fails a
/// step that causes one more, or one less).
@Suite struct DailyLimitTests {
    private let group = DailyLimitKeys.appGroup
    private let instagram = "com.burbn.instagram"

    /// A device whose main app has limited Instagram to `minutes` a day.
    private func deviceLimitingInstagram(minutes: Int = 30, maxRequests: Int = 3) throws -> TestDevice {
        let device = try TestDevice(
            app: .dailyLimit, settings: ["dailyLimitMinutes": .int(minutes), "maxRequests": .int(maxRequests)])
        let status = try device.send(
            .limitApps([instagram]),
            effects: [
                .storeWrite(suite: group, key: "limitedApps", value: .array([.string(instagram)])),
                .activityStart(activity: "daily_limit"),
                .monitorIntervalStart(activity: "daily_limit"),
            ])
        #expect(
            status == [
                "limitedApps": [.string(instagram)], "dailyLimitMinutes": .int(minutes), "requestsToday": 0,
                "shielded": false,
            ])
        return device
    }

    private func shield(requests: Int, of maxRequests: Int = 3, minutes: Int = 30) -> ShieldConfiguration {
        ShieldConfiguration(
            title: "Daily limit reached",
            subtitle: "You've used your \(minutes) minutes of Instagram today."
                + (requests > 0 ? " Asked for more: \(requests) of \(maxRequests)." : ""),
            primaryButtonLabel: "Close", secondaryButtonLabel: requests < maxRequests ? "I need it" : nil)
    }

    /// Opens Instagram and uses it up to the limit: the monitor shields it and says so.
    private func useUpTheLimit(_ device: TestDevice, minutes: Int = 30) throws {
        try device.send(
            .appOpen(app: instagram), effects: [.appState(locked: false, foregroundApp: instagram, shieldShown: false)])
        try device.advance(minutes: Double(minutes) - 1)
        try device.advance(
            minutes: 1,
            effects: [
                .monitorThreshold(activity: "daily_limit", event: "limit_reached"),
                .shieldApply(store: "dailyLimit", applications: [instagram], categories: .none),
                .notification(title: "Time's up", body: "You've used your \(minutes) minutes for today."),
                .shieldShown(app: instagram, configuration: shield(requests: 0, minutes: minutes), source: .extension),
                .appState(locked: false, foregroundApp: instagram, shieldShown: true),
            ])
    }

    /// Presses Close on the shield: the app closes.
    private func pressClose(_ device: TestDevice) throws {
        try device.send(
            .shieldPress(app: instagram, button: .primary),
            effects: [
                .shieldAction(app: instagram, button: .primary, response: .close),
                .appState(locked: false, foregroundApp: nil, shieldShown: false),
            ])
    }

    @Test func theLimitShieldsTheAppWithTheMinutesUsed() throws {
        let device = try deviceLimitingInstagram()
        try useUpTheLimit(device)
        #expect(try device.shields().stores["dailyLimit"]?.applications == [instagram])
        #expect(try device.appState(as: DailyLimitStatus.self).shielded)
    }

    /// A user who said no to notifications (the device's `notificationPermission`, a
    /// `DeviceConfig` the harness exports) still gets the shield, and no banner: iOS suppresses it.
    @Test func aUserWhoDeniedNotificationsGetsTheShieldWithoutTheBanner() throws {
        var config = DeviceConfig()
        config.notificationPermission = .deny
        let device = try TestDevice(appName: "dailylimit", config: config) { platform, executors in
            DailyLimitApp(platform: platform, executors: executors, settings: DailyLimitSettings(dailyLimitMinutes: 30, maxRequests: 3))
        }
        device.exhaustivity = .kinds(["notification", "notification.suppressed", "shield.apply"])
        _ = try device.intent(
            "limitApps", ["apps": [.string(instagram)]])
        try device.send(.appOpen(app: instagram))
        try device.advance(
            minutes: 30,
            effects: [
                .shieldApply(store: "dailyLimit", applications: [instagram], categories: .none),
                .notificationSuppressed(title: "Time's up", body: "You've used your 30 minutes for today.", reason: "denied"),
            ])
        #expect(try device.notifications().isEmpty)
    }

    @Test func theLimitComesFromTheSettings() throws {
        let device = try deviceLimitingInstagram(minutes: 90)
        try useUpTheLimit(device, minutes: 90)
    }

    @Test func iNeedItCountsTheRequestAndRedrawsTheShieldUntilTheButtonIsGone() throws {
        let device = try deviceLimitingInstagram(maxRequests: 2)
        try useUpTheLimit(device)
        try device.send(
            .shieldPress(app: instagram, button: .secondary),
            effects: [
                .storeWrite(suite: group, key: "requests.2026-01-05", value: .int(1)),
                .shieldAction(app: instagram, button: .secondary, response: .defer),
                .shieldShown(app: instagram, configuration: shield(requests: 1, of: 2), source: .extension),
                .appState(locked: false, foregroundApp: instagram, shieldShown: true),
            ])
        try device.send(
            .shieldPress(app: instagram, button: .secondary),
            effects: [
                .storeWrite(suite: group, key: "requests.2026-01-05", value: .int(2)),
                .shieldAction(app: instagram, button: .secondary, response: .defer),
                .shieldShown(app: instagram, configuration: shield(requests: 2, of: 2), source: .extension),
                .appState(locked: false, foregroundApp: instagram, shieldShown: true),
            ])
        try device.send(
            .shieldPress(app: instagram, button: .secondary),
            effects: [
                .shieldAction(app: instagram, button: .secondary, response: .close),
                .appState(locked: false, foregroundApp: nil, shieldShown: false),
            ])
        #expect(try device.value(forKey: "requests.2026-01-05", suite: group) == .int(2))
        try device.expectState(DailyLimitStatus.self) {
            $0.limitedApps = [instagram]
            $0.requestsToday = 2
            $0.shielded = true
        }
    }

    /// The app's state as a diff, TCA-style: what changed since the last look, and nothing else.
    @Test func aStateChangeIsAssertedAsADiff() throws {
        let device = try deviceLimitingInstagram(maxRequests: 2)
        try device.expectState(DailyLimitStatus.self) { $0.limitedApps = [instagram] }
        device.exhaustivity = .off
        try useUpTheLimit(device)
        try device.send(.shieldPress(app: instagram, button: .secondary))
        let mismatch = #expect(throws: StateMismatch.self) {
            try device.expectState(DailyLimitStatus.self) { $0.requestsToday = 1 }
        }
        #expect(mismatch?.differences.map(\.path) == ["shielded"], "the shield came too, and the test did not say so")
        #expect(mismatch?.description.contains("shielded: expected false, got true") == true)
        try device.expectState(DailyLimitStatus.self) { _ in }
    }

    @Test func closeSendsTheUserHome() throws {
        let device = try deviceLimitingInstagram()
        try useUpTheLimit(device)
        try pressClose(device)
    }

    @Test func midnightLiftsTheShieldAndStartsTheCountAgain() throws {
        let device = try deviceLimitingInstagram()
        try useUpTheLimit(device)
        device.exhaustivity = .off
        try device.send(.shieldPress(app: instagram, button: .secondary))
        device.exhaustivity = .observable
        try pressClose(device)
        // The device starts Monday 09:00; 09:30 now, so midnight is 14.5 hours on.
        try device.advance(
            seconds: 14.5 * 3600,
            effects: [
                .monitorIntervalEnd(activity: "daily_limit"),
                .monitorIntervalStart(activity: "daily_limit"),
                .shieldClear(store: "dailyLimit"),
            ])
        #expect(try device.shields().effective.applications.isEmpty)
        #expect(try device.appState(as: DailyLimitStatus.self).requestsToday == 0, "yesterday's request is yesterday's")
    }

    @Test func removingTheLimitStopsMonitoringAndLiftsTheShield() throws {
        let device = try deviceLimitingInstagram()
        try useUpTheLimit(device)
        try device.intent(
            "removeLimit",
            effects: [
                .activityStop(activity: "daily_limit"),
                .monitorIntervalEnd(activity: "daily_limit"),
                .shieldClear(store: "dailyLimit"),
                // The shield lifts when the clear lands, before the app's next line.
                .appState(locked: false, foregroundApp: instagram, shieldShown: false),
                .storeRemove(suite: group, key: "limitedApps"),
            ])
        #expect(try device.activities().isEmpty)
    }

    @Test func badArgumentsAreRefusedBeforeAnythingRuns() throws {
        let device = try deviceLimitingInstagram()
        #expect(throws: DeviceError.invalidArgument(field: "args.apps", reason: "one to fifty bundle ids")) {
            try device.send(.limitApps([]))
        }
        #expect(throws: DeviceError.unknownIntent("snooze", known: ["limitApps", "removeLimit", "status"])) {
            try device.intent("snooze")
        }
    }

    @Test func settingsOutOfRangeAreRefusedByName() throws {
        #expect(throws: DeviceError.invalidArgument(field: "dailyLimitMinutes", reason: "a whole number of minutes, 1 to 1440")) {
            try DailyLimitSettings.decode(["dailyLimitMinutes": .int(0)])
        }
        #expect(throws: DeviceError.self) { try DailyLimitSettings.decode(["dailyLimit": .int(5)]) }
        #expect(try DailyLimitSettings.decode([:]) == DailyLimitSettings())
    }
}
