import SimulatediOS

/// DailyLimit as a device runs it: after `dailyLimitMinutes` of the chosen apps in a day, they
/// are shielded until midnight. The shield's "I need it" button only counts the request (an
/// extension cannot grant time on its own); after `maxRequests` it is gone.
public struct DailyLimitApp: SimulatedApp {
    public let bundleIdentifier = DailyLimitKeys.bundleIdentifier
    public let appGroup = DailyLimitKeys.appGroup
    private let process: DailyLimitProcess
    private let mainApp: DailyLimitMainApp

    public init(platform: Platform, executors: ProcessExecutors, settings: DailyLimitSettings = DailyLimitSettings()) {
        process = DailyLimitProcess(platform: platform, settings: settings)
        mainApp = DailyLimitMainApp(executor: executors.makeExecutor(label: "dailylimit.app"), process: process)
    }

    public func makeMonitor(executor: WorldActorExecutor) -> any DeviceActivityMonitor {
        DailyLimitMonitor(executor: executor, process: process)
    }

    public func makeShieldConfiguration(executor: WorldActorExecutor) -> any ShieldConfigurationDataSource {
        DailyLimitShieldConfiguration(executor: executor, process: process)
    }

    public func makeShieldAction(executor: WorldActorExecutor) -> any ShieldActionDelegate {
        DailyLimitShieldAction(executor: executor, process: process)
    }

    public var intents: IntentTable { IntentTable(DailyLimitIntent.all, on: mainApp) }

    /// How clarityd lists it (`daemon.catalog`, `clarityctl intent --help`) once registered.
    public static let description = AppDescription(
        name: "dailylimit", bundleIdentifier: DailyLimitKeys.bundleIdentifier, appGroup: DailyLimitKeys.appGroup,
        available: true, intents: DailyLimitIntent.all.map(\.description))

    public func launch() async throws { try await mainApp.launch() }

    public func state() async throws -> any Encodable & Sendable { try await mainApp.status() }
}
