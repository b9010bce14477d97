import ExtensionSandbox
import Foundation

/// Clarity v2 (seed 000) as the device runs it: the main app, its three extensions and the
/// intents a user can perform (docs/apps/clarity.md).
struct ClarityApp: SimulatedApp {
    let bundleIdentifier = ClarityKeys.bundleIdentifier
    let appGroup = ClarityKeys.appGroup
    private let platform: Platform
    private let config: DeviceConfig
    private let mainApp: ClarityMainApp

    init(platform: Platform, config: DeviceConfig, world: World) {
        self.platform = platform
        self.config = config
        self.mainApp = ClarityMainApp(
            executor: world.makeExecutor(label: "clarity.app"), platform: platform,
            thresholdsMinutes: config.frictionThresholdsMinutes, verificationNamesChallenge: config.verificationNamesChallenge)
    }

    func makeMonitor(executor: WorldActorExecutor) -> any DeviceActivityMonitor {
        ClarityMonitor(
            executor: executor, platform: platform, thresholdsMinutes: config.frictionThresholdsMinutes,
            verificationNamesChallenge: config.verificationNamesChallenge)
    }

    func makeShieldConfiguration(executor: WorldActorExecutor) -> any ShieldConfigurationDataSource {
        ClarityShieldConfiguration(executor: executor, platform: platform)
    }

    func makeShieldAction(executor: WorldActorExecutor) -> any ShieldActionDelegate {
        ClarityShieldAction(executor: executor, platform: platform)
    }

    var intentNames: [String] { ClarityIntent.all.map(\.name) }

    static let description = AppDescription(
        name: "clarity", bundleIdentifier: ClarityKeys.bundleIdentifier, appGroup: ClarityKeys.appGroup, available: true,
        intents: ClarityIntent.all.map { IntentDescription(name: $0.name, arguments: $0.arguments) })

    func prepare(intent: String, arguments: any IntentArguments) throws(DeviceError) -> PreparedIntent {
        guard let known = ClarityIntent.byName[intent] else { throw .unknownIntent(intent, known: intentNames) }
        return try known.prepare(arguments, for: mainApp)
    }

    func launch() async throws { try await mainApp.launch() }

    func didBecomeActive() async throws { try await mainApp.didBecomeActive() }

    func callChanged(_ call: CallState) async throws { try await mainApp.callChanged(call) }

    func networkChanged(ssid: String?) async throws { try await mainApp.networkChanged(ssid: ssid) }

    var dataRevision: DataRevision { mainApp.dataRevision }

    func persistentData() async throws -> Data? { try await mainApp.persistentData() }

    func restore(from data: Data) async throws { try await mainApp.restore(from: data) }

    func state() async throws -> any Encodable & Sendable { try await mainApp.state() }
}
