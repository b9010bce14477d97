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
            thresholdsMinutes: config.frictionThresholdsMinutes)
    }

    func makeMonitor(executor: WorldActorExecutor) -> any DeviceActivityMonitor {
        ClarityMonitor(executor: executor, platform: platform, thresholdsMinutes: config.frictionThresholdsMinutes)
    }

    func makeShieldConfiguration(executor: WorldActorExecutor) -> any ShieldConfigurationDataSource {
        ClarityShieldConfiguration(executor: executor, platform: platform)
    }

    func makeShieldAction(executor: WorldActorExecutor) -> any ShieldActionDelegate {
        ClarityShieldAction(executor: executor, platform: platform)
    }

    /// Clarity's intents: `selectApps` (`apps`, optional `categories`).
    static let intents = ["selectApps"]

    func perform(intent: String, arguments: any IntentArguments) async throws -> any Encodable & Sendable {
        switch intent {
        case "selectApps":
            guard let apps = try arguments.strings("apps") else {
                throw DeviceError.invalidArgument(field: "args.apps", reason: "required: an array of bundle ids")
            }
            let categories = try arguments.strings("categories") ?? []
            if let bad = (apps + categories).first(where: \.isEmpty) {
                throw DeviceError.invalidArgument(field: "args.apps", reason: "empty name \"\(bad)\"")
            }
            guard Set(apps).count <= ManagedSettingsAgent.maxApplications else {
                throw DeviceError.invalidArgument(
                    field: "args.apps", reason: "at most \(ManagedSettingsAgent.maxApplications) apps can be shielded")
            }
            return try await mainApp.selectApps(apps, categories: categories)
        default:
            throw DeviceError.unknownIntent(intent)
        }
    }

    func launch() async throws {}

    func didBecomeActive() async throws {}

    func callChanged(_ call: CallState) async throws {}

    func networkChanged(ssid: String?) async throws {}

    func revision() async -> Int { 0 }

    func persistentData() async throws -> Data? { nil }

    func restore(from data: Data) async throws {}

    func state() async throws -> any Encodable & Sendable {
        try await mainApp.state()
    }
}
