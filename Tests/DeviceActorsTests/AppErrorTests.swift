import DeviceTesting
import ExtensionSandbox
import Testing

@_spi(Host) import SimulatediOS

/// What an app or extension throws where nobody waits for it (a monitor callback, a shield
/// extension, an observer, a timer) is traced as `app.error` under the process that threw it.
@Suite struct AppErrorTests {
    struct Broken: Error, CustomStringConvertible {
        var description: String { "broken" }
    }

    struct FailingMonitor: DeviceActivityMonitor {
        func intervalDidStart(for activity: String) async throws { throw Broken() }
    }

    struct FailingShieldConfiguration: ShieldConfigurationDataSource {
        func configuration(shielding application: String) async throws -> ShieldConfiguration { throw Broken() }
        func configuration(shielding application: String, in category: String) async throws -> ShieldConfiguration {
            throw Broken()
        }
    }

    struct FailingShieldAction: ShieldActionDelegate {
        func handle(action: ShieldButton, for application: String) async throws -> ShieldActionResponse { throw Broken() }
    }

    /// The main app: `watch` monitors a daily activity and shields Instagram.
    struct FailingMainApp: Sendable {
        let platform: Platform

        func watch() async throws {
            try await platform.deviceActivityCenter.startMonitoring("daily", during: allDay)
            try await platform.managedSettingsStore(named: "limit").setShield(applications: [instagram], categories: .none)
        }
    }

    struct FailingApp: SimulatedApp {
        let bundleIdentifier = "com.example.failing"
        let appGroup = "group.com.example.failing"
        let platform: Platform

        func makeMonitor(executor: WorldActorExecutor) -> any DeviceActivityMonitor { FailingMonitor() }
        func makeShieldConfiguration(executor: WorldActorExecutor) -> any ShieldConfigurationDataSource {
            FailingShieldConfiguration()
        }
        func makeShieldAction(executor: WorldActorExecutor) -> any ShieldActionDelegate { FailingShieldAction() }

        var intents: IntentTable {
            IntentTable(
                [
                    AppIntent<FailingMainApp>.named("watch", NoArguments.self) { app, _ in
                        try await app.watch()
                        return "watching"
                    }
                ],
                on: FailingMainApp(platform: platform))
        }

        func launch() async throws {
            platform.callObserver.setDelegate { _ in throw Broken() }
            platform.pathMonitor.start { _ in throw Broken() }
            await platform.storeKitServices.configure(products: [StoreProduct(id: "pro", displayPrice: "$1")])
            await platform.storeKitServices.listenForTransactions { _ in throw Broken() }
            _ = platform.scheduleAppTimer(after: 60, label: "tick") { throw Broken() }
        }

        func didBecomeActive() async throws { throw Broken() }
    }

    private func error(_ callback: String) -> Effect { .appError(callback: callback, message: "broken") }

    @Test func everyErrorNobodyWaitsForIsTracedUnderTheProcessThatThrewIt() throws {
        let device = try TestDevice(appName: "failing") { platform, _ in FailingApp(platform: platform) }
        try device.intent(
            "watch",
            effects: [
                .activityStart(activity: "daily"), .monitorIntervalStart(activity: "daily"),
                .shieldApply(store: "limit", applications: [instagram], categories: .none), error("intervalDidStart"),
            ])
        #expect(device.device.traceEntries(since: nil, limit: nil, kinds: ["app.error"]).map(\.entry.actor) == ["failing.monitor"])

        try device.send(
            .appOpen(app: instagram),
            effects: [
                .appState(locked: false, foregroundApp: instagram, shieldShown: false),
                error("configuration(shielding:)"),
                .shieldShown(
                    app: instagram, configuration: .systemDefault(appName: "Instagram"), source: .systemDefault),
                .appState(locked: false, foregroundApp: instagram, shieldShown: true),
            ])
        try device.send(
            .shieldPress(app: instagram, button: .primary),
            effects: [error("handle(action:for:)"), .shieldAction(app: instagram, button: .primary, response: .none)])
        try device.send(.callDial(handle: "+1"), effects: [error("callObserver")])
        try device.advance(seconds: 60, effects: [error("timer tick")])
        let errors = device.device.traceEntries(since: nil, limit: nil, kinds: ["app.error"])
        #expect(
            errors.map { "\($0.entry.actor) \($0.entry.sandbox ?? "-")" } == [
                "failing.monitor monitor", "failing.shieldConfiguration shieldConfiguration",
                "failing.shieldAction shieldAction", "failing.app -", "failing.app -",
            ])
    }

    /// The main app's own signals: becoming active, the path monitor, `Transaction.updates`.
    @Test func theMainAppsErrorsAreTracedUnderTheMainApp() throws {
        let device = try TestDevice(appName: "failing") { platform, _ in FailingApp(platform: platform) }
        try device.send(
            .appOpen(app: "com.example.failing"),
            effects: [.appState(locked: false, foregroundApp: "com.example.failing", shieldShown: false), error("didBecomeActive")])
        try device.send(.wifiJoin(ssid: "Home"), effects: [error("pathUpdateHandler")])
        try device.send(
            .storeKitPurchase(product: "pro"),
            effects: [.storeKit(transaction: "purchase", product: "pro"), error("Transaction.updates")])
        let errors = device.device.traceEntries(since: nil, limit: nil, kinds: ["app.error"])
        #expect(errors.map { "\($0.entry.actor) \($0.entry.sandbox ?? "-")" } == Array(repeating: "failing.app -", count: 3))
    }
}
