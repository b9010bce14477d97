import DeviceTesting
import ExtensionSandbox
import Testing

@_spi(Host) import SimulatediOS

/// A timer lives in the process that set it (docs/platform.md, Extensions): the main app's fires
/// on time; one set by ShieldAction (resident, then idle and suspended) or by the monitor (ended
/// after its callback) never runs, as on a device, and the trace says it was lost. This is the
/// re-shield timer of ScrollKitty's seed (Critical Issue 2), which cannot work on iOS.
@Suite struct ExtensionTimerTests {
    static let store = "kitty"

    /// Pressing Continue unshields the app and sets a timer to shield it again in a minute.
    struct ReshieldingShieldAction: ShieldActionDelegate {
        let platform: Platform

        func handle(action: ShieldButton, for application: String) async throws -> ShieldActionResponse {
            let store = platform.managedSettingsStore(named: ExtensionTimerTests.store)
            try await store.clearAllSettings()
            platform.scheduleAppTimer(after: 60, label: "reshield") {
                try await store.setShield(applications: [application], categories: .none)
            }
            return .close
        }
    }

    struct ContinueShield: ShieldConfigurationDataSource {
        func configuration(shielding application: String) async throws -> ShieldConfiguration {
            ShieldConfiguration(title: "Kitty", subtitle: "Continue costs you", primaryButtonLabel: "Close", secondaryButtonLabel: "Continue")
        }
        func configuration(shielding application: String, in category: String) async throws -> ShieldConfiguration {
            try await configuration(shielding: application)
        }
    }

    /// At the interval's start, the monitor sets a timer to write the App Group in 30 s.
    struct TickingMonitor: DeviceActivityMonitor {
        let platform: Platform

        func intervalDidStart(for activity: String) async throws {
            let defaults = platform.userDefaults(suiteName: "group.com.example.timers")
            platform.scheduleAppTimer(after: 30, label: "tick") { try await defaults.set(.bool(true), forKey: "ticked") }
        }
    }

    struct TimerMainApp: Sendable {
        let platform: Platform

        func guardApp() async throws {
            try await platform.managedSettingsStore(named: ExtensionTimerTests.store).setShield(
                applications: [instagram], categories: .none)
        }

        func watch() async throws {
            try await platform.deviceActivityCenter.startMonitoring("daily", during: allDay)
        }

        func remind() {
            let defaults = platform.userDefaults(suiteName: "group.com.example.timers")
            platform.scheduleAppTimer(after: 60, label: "remind") { try await defaults.set(.bool(true), forKey: "reminded") }
        }
    }

    struct TimerApp: SimulatedApp {
        let bundleIdentifier = "com.example.timers"
        let appGroup = "group.com.example.timers"
        let platform: Platform

        func makeMonitor(executor: WorldActorExecutor) -> any DeviceActivityMonitor { TickingMonitor(platform: platform) }
        func makeShieldConfiguration(executor: WorldActorExecutor) -> any ShieldConfigurationDataSource { ContinueShield() }
        func makeShieldAction(executor: WorldActorExecutor) -> any ShieldActionDelegate {
            ReshieldingShieldAction(platform: platform)
        }

        var intents: IntentTable {
            IntentTable(
                [
                    AppIntent<TimerMainApp>.named("guard", NoArguments.self) { app, _ in
                        try await app.guardApp()
                        return "guarded"
                    },
                    AppIntent<TimerMainApp>.named("watch", NoArguments.self) { app, _ in
                        try await app.watch()
                        return "watching"
                    },
                    AppIntent<TimerMainApp>.named("remind", NoArguments.self) { app, _ in
                        app.remind()
                        return "reminding"
                    },
                ],
                on: TimerMainApp(platform: platform))
        }
    }

    private func makeDevice() throws -> TestDevice {
        try TestDevice(appName: "timers") { platform, _ in TimerApp(platform: platform) }
    }

    @Test func aTimerSetByShieldActionIsLostAndTheShieldNeverReturns() throws {
        let device = try makeDevice()
        try device.intent("guard", effects: [.shieldApply(store: Self.store, applications: [instagram], categories: .none)])
        try device.send(
            .appOpen(app: instagram),
            effects: [
                .appState(locked: false, foregroundApp: instagram, shieldShown: false),
                .shieldShown(
                    app: instagram,
                    configuration: ShieldConfiguration(
                        title: "Kitty", subtitle: "Continue costs you", primaryButtonLabel: "Close", secondaryButtonLabel: "Continue"),
                    source: .extension),
                .appState(locked: false, foregroundApp: instagram, shieldShown: true),
            ])
        try device.send(
            .shieldPress(app: instagram, button: .secondary),
            effects: [
                .shieldClear(store: Self.store),
                .appState(locked: false, foregroundApp: instagram, shieldShown: false),
                .shieldAction(app: instagram, button: .secondary, response: .close),
                .appState(locked: false, foregroundApp: nil, shieldShown: false),
            ])
        try device.advance(seconds: 60, effects: [.timerLost(label: "reshield", reason: "suspended")])
        let lost = device.device.traceEntries(since: nil, limit: nil, kinds: ["timer.lost"])
        #expect(lost.map { "\($0.entry.actor) \($0.entry.sandbox ?? "-") \($0.entry.time.seconds)" } == [
            "timers.shieldAction shieldAction 60.0"
        ])
        #expect(try device.device.shields().effective.applications.isEmpty, "the shield never comes back")
    }

    @Test func aTimerSetByTheMonitorIsLostOnceItsProcessEnded() throws {
        let device = try makeDevice()
        try device.intent("watch", effects: [.activityStart(activity: "daily"), .monitorIntervalStart(activity: "daily")])
        try device.advance(seconds: 30, effects: [.timerLost(label: "tick", reason: "ended")])
        #expect(try device.device.storeGet(suite: nil, key: "ticked") == nil)
    }

    @Test func theMainAppsTimerFiresOnTime() throws {
        let device = try makeDevice()
        try device.intent("remind")
        try device.advance(seconds: 59)
        try device.advance(
            seconds: 1, effects: [.storeWrite(suite: "group.com.example.timers", key: "reminded", value: .bool(true))])
    }

    /// A main-app timer lives in its launch: `app.terminate` ends it (traced `timer.lost`, reason
    /// `terminated`, under the main app), and a relaunch does not bring it back.
    @Test func theMainAppsTimerDiesWithItsProcess() throws {
        let device = try makeDevice()
        try device.intent("remind")
        try device.send(.appTerminate(app: "com.example.timers"), effects: [.appTerminate])
        try device.send(
            .appOpen(app: "com.example.timers"),
            effects: [.appLaunch(reason: "open"), .appState(locked: false, foregroundApp: "com.example.timers", shieldShown: false)])
        try device.advance(seconds: 60, effects: [.timerLost(label: "remind", reason: "terminated")])
        let lost = device.device.traceEntries(since: nil, limit: nil, kinds: ["timer.lost"])
        #expect(lost.map(\.entry.actor) == ["timers.app"])
        #expect(try device.device.storeGet(suite: nil, key: "reminded") == nil)
    }
}
