import DeviceActors
import DeviceTesting
import ExtensionSandbox
import Foundation
import Testing

@_spi(Host) import SimulatediOS

/// Notification authorization (`UNUserNotificationCenter.requestAuthorization`, docs/platform.md,
/// "Notifications"): an app shows notifications only after it asked and the user (config
/// `notificationPermission`) allowed it; the user is asked once; anything else is traced
/// `notification.suppressed` and shown nowhere. The authorization survives a snapshot.
@Suite struct NotificationAuthorizationTests {
    struct NotifyingMainApp: Sendable {
        let platform: Platform

        func ask() async throws -> Bool { try await platform.notificationCenter.requestAuthorization() }

        func notify() async throws -> String {
            try await platform.notificationCenter.add(title: "Hello", body: "from the app")
            return try await platform.notificationCenter.authorizationStatus().rawValue
        }
    }

    struct NotifyingApp: SimulatedApp {
        let bundleIdentifier = "com.example.notify"
        let appGroup = "group.com.example.notify"
        let platform: Platform

        var intents: IntentTable {
            IntentTable(
                [
                    AppIntent<NotifyingMainApp>.named("ask", NoArguments.self) { app, _ in try await app.ask() },
                    AppIntent<NotifyingMainApp>.named("notify", NoArguments.self) { app, _ in try await app.notify() },
                ],
                on: NotifyingMainApp(platform: platform))
        }
    }

    private func device(_ permission: NotificationPermission = .allow) throws -> TestDevice {
        var config = DeviceConfig()
        config.notificationPermission = permission
        return try TestDevice(appName: "notify", config: config) { platform, _ in NotifyingApp(platform: platform) }
    }

    @Test func anAppThatNeverAskedShowsNothing() throws {
        let device = try device()
        let status = try device.intent(
            "notify",
            effects: [.notificationSuppressed(title: "Hello", body: "from the app", reason: "notDetermined")])
        #expect(status == "notDetermined")
        #expect(try device.notifications().isEmpty)
        #expect(try device.state().notifications == .notDetermined)
    }

    @Test func allowedItShowsThem() throws {
        let device = try device()
        #expect(try device.intent("ask", effects: [.notificationAuthorization(granted: true)]) == true)
        #expect(try device.intent("notify", effects: [.notification(title: "Hello", body: "from the app")]) == "authorized")
        #expect(try device.notifications().map(\.title) == ["Hello"])
        #expect(try device.state().notifications == .authorized)
    }

    /// The user is asked once: a denial stands even after the config changes, as on iOS, where
    /// only Settings changes it.
    @Test func deniedItShowsNoneAndIsNotAskedAgain() throws {
        let device = try device(.deny)
        #expect(try device.intent("ask", effects: [.notificationAuthorization(granted: false)]) == false)
        try device.intent("notify", effects: [.notificationSuppressed(title: "Hello", body: "from the app", reason: "denied")])
        var overrides = DeviceConfig.Overrides()
        overrides.notificationPermission = .allow
        _ = try device.device.updateConfig(overrides)
        #expect(try device.intent("ask", effects: []) == false)
        #expect(try device.notifications().isEmpty)
    }

    /// Clarity asks at launch; the answer is in the snapshot, and the relaunch after a restore
    /// does not ask again.
    @Test func theAnswerSurvivesASnapshot() throws {
        var config = DeviceConfig()
        config.notificationPermission = .deny
        let device = try TestDevice(app: .clarity, config: config)
        #expect(device.device.traceEntries(since: nil, limit: nil, kinds: ["notification.authorization"]).count == 1)
        let snapshot = try device.device.snapshot()
        #expect(snapshot.notificationAuthorization == .denied)
        var allowing = snapshot
        allowing.config.notificationPermission = .allow
        let restored = try SimulatedDevice(restoring: allowing, catalog: AppCatalog([.clarity]))
        #expect(try restored.state().notifications == .denied)
        #expect(restored.traceEntries(since: nil, limit: nil, kinds: ["notification.authorization"]).count == 1)
    }

    @Test func thePermissionIsAllowOrDeny() throws {
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode(DeviceConfig.Overrides.self, from: Data(#"{"notificationPermission":"maybe"}"#.utf8))
        }
        let deny = try JSONDecoder().decode(DeviceConfig.Overrides.self, from: Data(#"{"notificationPermission":"deny"}"#.utf8))
        #expect(deny.notificationPermission == .deny)
    }
}
