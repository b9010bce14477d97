@testable import DeviceActors
import DeviceTesting
import ExtensionSandbox
import Testing

@_spi(Host) import SimulatediOS

/// How an app hears of a lock or unlock (docs/platform.md, Shortcuts and Android): on iOS only
/// through a Shortcuts personal automation the user made, on Android through the receiver its
/// manifest declares; and what each system does not have, it refuses.
@Suite struct LockSignalTests {
    static let suite = "group.com.example.unlocks"

    /// Records each unlock it hears of in the App Group (`unlocks`: a count).
    struct UnlockCounter: Sendable {
        let platform: Platform

        func record(_ kind: String) async throws {
            let defaults = platform.userDefaults(suiteName: LockSignalTests.suite)
            let count = try await defaults.integer(forKey: kind)
            try await defaults.set(.int(count + 1), forKey: kind)
        }
    }

    struct CountingApp: SimulatedApp {
        let bundleIdentifier = "com.example.unlocks"
        let appGroup = LockSignalTests.suite
        let platform: Platform

        var appShortcuts: [AppShortcut] {
            [AppShortcut(name: "RecordUnlock") { try await UnlockCounter(platform: platform).record("unlocks") }]
        }

        func launch() async throws {
            guard platform.devicePlatform == .android else { return }
            let counter = UnlockCounter(platform: platform)
            let coroutines = platform.coroutineScope
            try platform.androidManifest.registerReceiver(actions: [.userPresent, .screenOff]) { action in
                try coroutines.launch("record") { try await counter.record(action == .userPresent ? "unlocks" : "locks") }
            }
        }
    }

    private func device(_ platform: DevicePlatform = .ios) throws -> TestDevice {
        var config = DeviceConfig()
        config.platform = platform
        return try TestDevice(appName: "unlocks", config: config) { platform, _ in CountingApp(platform: platform) }
    }

    private func install(_ automation: Automation, on device: TestDevice) throws {
        let shortcuts = device.device.platform.shortcuts
        try device.device.run { try await shortcuts.install(automation) }
    }

    @Test func onIOSNoAppHearsOfAnUnlockWithoutAnAutomation() throws {
        let device = try device()
        try device.send(.lock, effects: [.appState(locked: true, foregroundApp: nil, shieldShown: false)])
        try device.send(.unlock, effects: [.appState(locked: false, foregroundApp: nil, shieldShown: false)])
        #expect(try device.device.storeGet(suite: Self.suite, key: "unlocks") == nil)
    }

    @Test func theUnlockAutomationRunsTheAppShortcutAtEachUnlockOfALockedDevice() throws {
        let device = try device()
        try install(Automation(trigger: .unlock, shortcut: "RecordUnlock", askBeforeRunning: false), on: device)
        // Already unlocked: nothing unlocks, nothing runs.
        try device.send(.unlock, effects: [.appState(locked: false, foregroundApp: nil, shieldShown: false)])
        try device.send(.lock, effects: [.appState(locked: true, foregroundApp: nil, shieldShown: false)])
        try device.send(
            .unlock,
            effects: [
                .appState(locked: false, foregroundApp: nil, shieldShown: false),
                .automation(trigger: "unlock", shortcut: "RecordUnlock", outcome: "ran"),
                .storeWrite(suite: Self.suite, key: "unlocks", value: .int(1)),
            ])
    }

    @Test func anAutomationThatAsksBeforeRunningRecordsNothing() throws {
        let device = try device()
        try install(Automation(trigger: .unlock, shortcut: "RecordUnlock", askBeforeRunning: true), on: device)
        try device.send(.lock, effects: [.appState(locked: true, foregroundApp: nil, shieldShown: false)])
        try device.send(
            .unlock,
            effects: [
                .appState(locked: false, foregroundApp: nil, shieldShown: false),
                .automation(trigger: "unlock", shortcut: "RecordUnlock", outcome: "askBeforeRunning"),
            ])
    }

    @Test func theAutomationLaunchesATerminatedApp() throws {
        let device = try device()
        try install(Automation(trigger: .unlock, shortcut: "RecordUnlock", askBeforeRunning: false), on: device)
        try device.send(.appTerminate(app: "com.example.unlocks"), effects: [.appTerminate])
        try device.send(.lock, effects: [.appState(locked: true, foregroundApp: nil, shieldShown: false)])
        try device.send(
            .unlock,
            effects: [
                .appState(locked: false, foregroundApp: nil, shieldShown: false),
                .automation(trigger: "unlock", shortcut: "RecordUnlock", outcome: "ran"),
                .appLaunch(reason: "shortcut"),
                .storeWrite(suite: Self.suite, key: "unlocks", value: .int(1)),
            ])
    }

    @Test func onAndroidTheManifestReceiverHearsEveryLockAndUnlock() throws {
        let device = try device(.android)
        try device.send(
            .lock,
            effects: [
                .appState(locked: true, foregroundApp: nil, shieldShown: false),
                .storeWrite(suite: Self.suite, key: "locks", value: .int(1)),
            ])
        try device.send(
            .unlock,
            effects: [
                .appState(locked: false, foregroundApp: nil, shieldShown: false),
                .storeWrite(suite: Self.suite, key: "unlocks", value: .int(1)),
            ])
    }

    @Test func eachSystemRefusesTheOthersAPIs() throws {
        let ios = try device()
        let manifest = ios.device.platform.androidManifest
        #expect(throws: PlatformUnavailable.self) { try manifest.registerReceiver(actions: [.userPresent]) { _ in } }
        let android = try device(.android)
        let shortcuts = android.device.platform.shortcuts
        #expect(throws: DeviceError.self) {
            try android.device.run { try await shortcuts.install(Automation(trigger: .unlock, shortcut: "RecordUnlock", askBeforeRunning: false)) }
        }
    }
}
