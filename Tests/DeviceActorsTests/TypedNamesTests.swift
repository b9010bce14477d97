import DeviceTesting
import ExtensionSandbox
import Testing

@_spi(Host) import SimulatediOS

extension DeviceActivityName {
    fileprivate static let daily = Self("daily")
}

extension DeviceActivityEvent.Name {
    fileprivate static let limit = Self("limit")
}

extension ManagedSettingsStore.Name {
    fileprivate static let limit = Self("limit")
}

/// Code ported from iOS keeps its typed names: `DeviceActivityName`, `DeviceActivityEvent.Name`
/// and `ManagedSettingsStore.Name` where iOS takes them, and a monitor overriding the typed
/// callbacks is called.
@Suite struct TypedNamesTests {
    struct TypedMonitor: DeviceActivityMonitor {
        let platform: Platform

        func eventDidReachThreshold(_ event: DeviceActivityEvent.Name, activity: DeviceActivityName) async throws {
            guard event == .limit, activity == .daily else { return }
            try await platform.managedSettingsStore(named: .limit).setShieldApplications(["com.burbn.instagram"])
        }
    }

    struct TypedMainApp: Sendable {
        let platform: Platform

        func watch() async throws -> String {
            try await platform.deviceActivityCenter.startMonitoring(
                .daily, during: allDay,
                events: [.limit: DeviceActivityEvent(applications: ["com.burbn.instagram"], threshold: DateComponentsSpec(minute: 1))])
            return "watching"
        }
    }

    struct TypedApp: SimulatedApp {
        let bundleIdentifier = "com.example.typed"
        let appGroup = "group.com.example.typed"
        let platform: Platform

        func makeMonitor(executor: WorldActorExecutor) -> any DeviceActivityMonitor { TypedMonitor(platform: platform) }

        var intents: IntentTable {
            IntentTable(
                [AppIntent<TypedMainApp>.named("watch", NoArguments.self) { app, _ in try await app.watch() }],
                on: TypedMainApp(platform: platform))
        }
    }

    @Test func theTypedCallbackIsCalledWithTheTypedNames() throws {
        let device = try TestDevice(appName: "typed") { platform, _ in TypedApp(platform: platform) }
        try device.intent("watch", effects: [.activityStart(activity: "daily"), .monitorIntervalStart(activity: "daily")])
        try device.send(
            .appOpen(app: "com.burbn.instagram"),
            effects: [.appState(locked: false, foregroundApp: "com.burbn.instagram", shieldShown: false)])
        device.exhaustivity = .kinds(["monitor.threshold", "shield.apply"])
        try device.advance(
            minutes: 1,
            effects: [
                .monitorThreshold(activity: "daily", event: "limit"),
                .shieldApply(store: "limit", applications: ["com.burbn.instagram"], categories: .none),
            ])
    }
}
