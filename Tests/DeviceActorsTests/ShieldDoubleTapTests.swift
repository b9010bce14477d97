import DeviceTesting
import ExtensionSandbox
import Testing

@_spi(Host) import SimulatediOS

/// `shield.press` with `taps` (docs/platform.md, "Shield flow"): presses that reach ShieldAction at
/// once, each its own callback, interleaving at every platform call — so a read-modify-write of the
/// App Group in ShieldAction loses a press even within one process (the actor is reentrant at each
/// `await`).
@Suite struct ShieldDoubleTapTests {
    static let suite = "group.com.example.taps"

    /// Each press adds one to `presses`, read then written back.
    struct CountingShieldAction: ShieldActionDelegate {
        let platform: Platform

        func handle(action: ShieldButton, for application: String) async throws -> ShieldActionResponse {
            let defaults = platform.userDefaults(suiteName: ShieldDoubleTapTests.suite)
            let presses = try await defaults.integer(forKey: "presses")
            try await defaults.set(.int(presses + 1), forKey: "presses")
            return .close
        }
    }

    struct GuardingMainApp: Sendable {
        let platform: Platform
    }

    struct TapApp: SimulatedApp {
        let bundleIdentifier = "com.example.taps"
        let appGroup = ShieldDoubleTapTests.suite
        let platform: Platform

        func makeMonitor(executor: WorldActorExecutor) -> any DeviceActivityMonitor { IdleMonitor() }
        func makeShieldConfiguration(executor: WorldActorExecutor) -> any ShieldConfigurationDataSource { SystemShield() }
        func makeShieldAction(executor: WorldActorExecutor) -> any ShieldActionDelegate {
            CountingShieldAction(platform: platform)
        }

        var intents: IntentTable {
            IntentTable(
                [
                    AppIntent<GuardingMainApp>.named("guard", NoArguments.self) { app, _ in
                        try await app.platform.managedSettingsStore().setShield(applications: [instagram], categories: .none)
                        return "guarded"
                    }
                ],
                on: GuardingMainApp(platform: platform))
        }
    }

    struct IdleMonitor: DeviceActivityMonitor {}

    struct SystemShield: ShieldConfigurationDataSource {
        func configuration(shielding application: String) async throws -> ShieldConfiguration {
            .systemDefault(appName: "Instagram")
        }
        func configuration(shielding application: String, in category: String) async throws -> ShieldConfiguration {
            .systemDefault(appName: "Instagram")
        }
    }

    @Test func twoTapsAreTwoCallbacksThatInterleaveAndTheFirstCloseGoesHome() throws {
        let device = try TestDevice(appName: "taps") { platform, _ in TapApp(platform: platform) }
        try device.intent(
            "guard", effects: [.shieldApply(store: ManagedSettingsStore.defaultName, applications: [instagram], categories: .none)])
        try device.send(
            .appOpen(app: instagram),
            effects: [
                .appState(locked: false, foregroundApp: instagram, shieldShown: false),
                .shieldShown(app: instagram, configuration: .systemDefault(appName: "Instagram"), source: .extension),
                .appState(locked: false, foregroundApp: instagram, shieldShown: true),
            ])
        try device.send(
            .shieldPress(app: instagram, button: .primary, taps: 2),
            effects: [
                .storeWrite(suite: Self.suite, key: "presses", value: .int(1)),
                .storeWrite(suite: Self.suite, key: "presses", value: .int(1)),
                .shieldAction(app: instagram, button: .primary, response: .close),
                .shieldAction(app: instagram, button: .primary, response: .close),
                .appState(locked: false, foregroundApp: nil, shieldShown: false),
            ])
        #expect(try device.device.storeGet(suite: nil, key: "presses") == .int(1), "both read 0: one press lost")
        #expect(device.device.sandboxes().first(where: { $0.extension == "shieldAction" })?.launches == 1, "one process, two callbacks")
    }
}
