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

    /// Every intent Clarity answers (docs/apps/clarity.md).
    static let intents = [
        "selectApps", "setImportantContacts", "setProsocial", "addHomeNetwork", "removeHomeNetwork", "setWiFiGate",
        "challenge.open", "challenge.skip", "focus.start", "focus.end", "restorePurchases", "logMood",
    ]

    func perform(intent: String, arguments: any IntentArguments) async throws -> any Encodable & Sendable {
        switch intent {
        case "selectApps":
            let apps = try required(arguments.strings("apps"), "apps", "an array of bundle ids")
            let categories = try arguments.strings("categories") ?? []
            if let bad = (apps + categories).first(where: \.isEmpty) {
                throw DeviceError.invalidArgument(field: "args.apps", reason: "empty name \"\(bad)\"")
            }
            guard Set(apps).count <= ManagedSettingsAgent.maxApplications else {
                throw DeviceError.invalidArgument(
                    field: "args.apps", reason: "at most \(ManagedSettingsAgent.maxApplications) apps can be shielded")
            }
            return try await mainApp.selectApps(apps, categories: categories)
        case "setImportantContacts":
            let objects = try required(arguments.objects("contacts"), "contacts", "an array of {id, name, phone}")
            var inputs: [ClarityMainApp.ContactInput] = []
            for object in objects {
                inputs.append(.init(id: try object.string("id"), name: try object.string("name"), phone: try object.string("phone")))
            }
            return Contacts(contacts: try await mainApp.setImportantContacts(inputs).map(\.contactName))
        case "setProsocial":
            try await mainApp.setProsocial(try required(arguments.bool("enabled"), "enabled", "true or false"))
            return Done()
        case "addHomeNetwork":
            return Networks(homeNetworks: try await mainApp.addHomeNetwork(try ssid(arguments)))
        case "removeHomeNetwork":
            return Networks(homeNetworks: try await mainApp.removeHomeNetwork(try ssid(arguments)))
        case "setWiFiGate":
            try await mainApp.setWiFiGate(enabled: try arguments.bool("enabled"), strictMode: try arguments.bool("strictMode"))
            return Done()
        case "challenge.open":
            let challenge = try await mainApp.openChallenge()
            return Opened(
                challengeId: challenge.id, type: challenge.type.rawValue, contactName: challenge.suggestedContactName,
                status: await mainApp.store.profile.verificationStatus.rawValue)
        case "challenge.skip":
            try await mainApp.skipChallenge()
            return Done()
        case "focus.start":
            let minutes = try required(arguments.int("minutes"), "minutes", "a number of minutes")
            return try await mainApp.startFocusSession(minutes: minutes, whitelist: try arguments.strings("whitelist") ?? [])
        case "focus.end":
            return try await mainApp.endFocusSession(completed: false)
        case "restorePurchases":
            return Subscription(subscription: try await mainApp.restorePurchases())
        case "logMood":
            return try await mainApp.logMood(try required(arguments.int("mood"), "mood", "1 to 5"))
        default:
            throw DeviceError.unknownIntent(intent)
        }
    }

    private func required<T>(_ value: T?, _ field: String, _ expected: String) throws(DeviceError) -> T {
        guard let value else { throw DeviceError.invalidArgument(field: "args.\(field)", reason: "required: \(expected)") }
        return value
    }

    private func ssid(_ arguments: any IntentArguments) throws(DeviceError) -> String {
        let ssid = try required(arguments.string("ssid"), "ssid", "a network name")
        guard !ssid.isEmpty else { throw DeviceError.invalidArgument(field: "args.ssid", reason: "must not be empty") }
        return ssid
    }

    private struct Done: Encodable, Sendable { let ok = true }
    private struct Contacts: Encodable, Sendable { let contacts: [String] }
    private struct Networks: Encodable, Sendable { let homeNetworks: [String] }
    private struct Opened: Encodable, Sendable {
        let challengeId: String
        let type: String
        let contactName: String?
        let status: String
    }
    private struct Subscription: Encodable, Sendable { let subscription: String }

    func launch() async throws { try await mainApp.launch() }

    func didBecomeActive() async throws { try await mainApp.didBecomeActive() }

    func callChanged(_ call: CallState) async throws { try await mainApp.callChanged(call) }

    func networkChanged(ssid: String?) async throws { try await mainApp.networkChanged(ssid: ssid) }

    var dataRevision: DataRevision { mainApp.dataRevision }

    func persistentData() async throws -> Data? { try await mainApp.persistentData() }

    func restore(from data: Data) async throws { try await mainApp.restore(from: data) }

    func state() async throws -> any Encodable & Sendable { try await mainApp.state() }
}
