import Foundation
import SimulatediOS

/// Clarity v2 (seed 000) as the device runs it: the main app, its three extensions and the
/// intents a user can perform (docs/apps/clarity.md).
public struct ClarityApp: SimulatedApp {
    public let bundleIdentifier = ClarityKeys.bundleIdentifier
    public let appGroup = ClarityKeys.appGroup
    private let platform: Platform
    private let config: ClarityConfig
    private let mainApp: ClarityMainApp

    public init(platform: Platform, executors: ProcessExecutors, config: ClarityConfig) {
        self.platform = platform
        self.config = config
        self.mainApp = ClarityMainApp(
            executor: executors.makeExecutor(label: "clarity.app"), platform: platform,
            thresholdsMinutes: config.frictionThresholdsMinutes, verificationNamesChallenge: config.verificationNamesChallenge)
    }

    public func makeMonitor(executor: WorldActorExecutor) -> any DeviceActivityMonitor {
        ClarityMonitor(
            executor: executor, platform: platform, thresholdsMinutes: config.frictionThresholdsMinutes,
            verificationNamesChallenge: config.verificationNamesChallenge)
    }

    public func makeShieldConfiguration(executor: WorldActorExecutor) -> any ShieldConfigurationDataSource {
        ClarityShieldConfiguration(executor: executor, platform: platform)
    }

    public func makeShieldAction(executor: WorldActorExecutor) -> any ShieldActionDelegate {
        ClarityShieldAction(executor: executor, platform: platform)
    }

    public var intents: IntentTable { IntentTable(ClarityIntent.all, on: mainApp) }

    public static let description = AppDescription(
        name: "clarity", bundleIdentifier: ClarityKeys.bundleIdentifier, appGroup: ClarityKeys.appGroup, available: true,
        intents: ClarityIntent.all.map(\.description))

    public func launch() async throws { try await mainApp.launch() }

    public func didBecomeActive() async throws { try await mainApp.didBecomeActive() }

    public var dataRevision: DataRevision { mainApp.dataRevision }

    public func persistentData() async throws -> Data? { try await mainApp.persistentData() }

    public func restore(from data: Data) async throws { try await mainApp.restore(from: data) }

    public func state() async throws -> any Encodable & Sendable { try await mainApp.state() }
}
