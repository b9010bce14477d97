import SimulatediOS

/// Wallet as a device runs it: locked apps cost minutes to open; minutes are earned in the main
/// app and kept on the wallet's server, which the shield spends from.
public struct WalletApp: SimulatedApp {
    public let bundleIdentifier = WalletKeys.bundleIdentifier
    public let appGroup = WalletKeys.appGroup
    private let process: WalletProcess
    private let mainApp: WalletMainApp

    public init(platform: Platform, executors: ProcessExecutors, settings: WalletSettings = WalletSettings()) {
        process = WalletProcess(platform: platform, settings: settings)
        mainApp = WalletMainApp(executor: executors.makeExecutor(label: "wallet.app"), process: process)
    }

    public func makeMonitor(executor: WorldActorExecutor) -> any DeviceActivityMonitor {
        WalletMonitor(executor: executor, process: process)
    }

    public func makeShieldConfiguration(executor: WorldActorExecutor) -> any ShieldConfigurationDataSource {
        WalletShieldConfiguration(executor: executor, process: process)
    }

    public func makeShieldAction(executor: WorldActorExecutor) -> any ShieldActionDelegate {
        WalletShieldAction(executor: executor, process: process)
    }

    public var intents: IntentTable { IntentTable(WalletIntent.all, on: mainApp) }

    /// How clarityd lists it (`daemon.catalog`, `clarityctl intent --help`) once registered.
    public static let description = AppDescription(
        name: "wallet", bundleIdentifier: WalletKeys.bundleIdentifier, appGroup: WalletKeys.appGroup, available: true,
        intents: WalletIntent.all.map(\.description))

    public func launch() async throws {}

    public func state() async throws -> any Encodable & Sendable { try await mainApp.status() }
}
