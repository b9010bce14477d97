import Clarity
import ExtensionSandbox
import Foundation
import MakeHay
import ScrollKitty
@_spi(Host) import SimulatediOS
import SpendLess
import ThePhone

/// The apps this build simulates, by wire name (`device.create`'s `app`): one registration line
/// per app. An app is a target of its own under `Apps/<App>/` that sees only the simulated iOS
/// (docs/architecture.md); this table is the one place the host names it.
public enum AppCatalog {
    /// The apps this build runs.
    static let registrations: [String: AppRegistration] = [
        "clarity": AppRegistration(description: ClarityApp.description, invariants: ClarityInvariants.all) {
            platform, config, world throws(DeviceError) in
            // The top-level spellings first, `config.app` over them.
            let legacy: [String: StoredValue] = [
                "frictionThresholdsMinutes": .array(config.frictionThresholdsMinutes.map(StoredValue.int)),
                "verificationNamesChallenge": .bool(config.verificationNamesChallenge),
            ]
            let settings = try ClarityConfig.settings(legacy.merging(config.appSettings) { _, app in app }, of: config)
            return ClarityApp(platform: platform, world: world, config: settings)
        },
        "scrollkitty": AppRegistration(description: ScrollKittyApp.description, settings: ScrollKittySettings.self) {
            ScrollKittyApp(platform: $0, world: $1, settings: $2)
        },
        "spendless": AppRegistration(description: SpendLessApp.description, settings: SpendLessSettings.self) {
            SpendLessApp(platform: $0, world: $1, settings: $2)
        },
        "makehay": AppRegistration(description: MakeHayApp.description, settings: MakeHaySettings.self) {
            MakeHayApp(platform: $0, world: $1, settings: $2)
        },
        "thephone": AppRegistration(
            description: ThePhoneApp.description, settings: ThePhoneSettings.self, usesBackend: true, platforms: [.ios, .android]
        ) { ThePhoneApp(platform: $0, world: $1, settings: $2) },
    ]

    /// The apps PROTOCOL.md names, in its order.
    static let protocolApps = ["clarity", "scrollkitty", "spendless", "makehay", "thephone"]
    /// Every app name the daemon answers to: the protocol's, then any other app registered above
    /// (an app author's own, docs/sdk.md), by name.
    public static let knownNames = protocolApps + registrations.keys.filter { !protocolApps.contains($0) }.sorted()
    /// The apps this build can run.
    public static var available: [String] { knownNames.filter { registrations[$0] != nil } }

    /// What each known app is, in that order: the ones this build runs with their intents, the
    /// others marked not available yet (`daemon.catalog`, help and error messages).
    public static var descriptions: [AppDescription] {
        knownNames.map { name in
            registrations[name]?.description
                ?? AppDescription(name: name, bundleIdentifier: nil, appGroup: nil, available: false, intents: [])
        }
    }

    /// Whether `app` has a client for `platform` (an app not in the catalog: iOS only).
    public static func runs(_ app: String, on platform: DevicePlatform) -> Bool {
        registrations[app]?.platforms.contains(platform) ?? (platform == .ios)
    }

    /// The built-in invariants a scenario of `app` checks: the platform's (``PlatformInvariants``),
    /// then the app's.
    static func invariants(of app: String) -> [AppInvariant] {
        PlatformInvariants.all + (registrations[app]?.invariants ?? [])
    }
}

/// How the host makes one app: its description, its built-in invariants and its constructor.
struct AppRegistration: Sendable {
    let description: AppDescription
    let invariants: [AppInvariant]
    /// Whether the app talks to The Phone's backend (its devices get a ``DeviceConnection``).
    let usesBackend: Bool
    /// The operating systems it has a client for (`device.create`'s `platform`): iOS, and Android
    /// for The Phone (APPS.md §4.7).
    let platforms: Set<DevicePlatform>
    let make: @Sendable (Platform, DeviceConfig, World) throws(DeviceError) -> any SimulatedApp

    init(
        description: AppDescription, invariants: [AppInvariant], usesBackend: Bool = false,
        platforms: Set<DevicePlatform> = [.ios],
        make: @escaping @Sendable (Platform, DeviceConfig, World) throws(DeviceError) -> any SimulatedApp
    ) {
        self.description = description
        self.invariants = invariants
        self.usesBackend = usesBackend
        self.platforms = platforms
        self.make = make
    }

    /// An app whose settings are `Settings`, decoded from the device's `config.app` (unknown or
    /// ill-typed members refused, named `config.app.<member>`): the usual registration line.
    init<Settings: AppConfiguration>(
        description: AppDescription, invariants: [AppInvariant] = [], settings: Settings.Type, usesBackend: Bool = false,
        platforms: Set<DevicePlatform> = [.ios], make: @escaping @Sendable (Platform, World, Settings) -> any SimulatedApp
    ) {
        self.init(description: description, invariants: invariants, usesBackend: usesBackend, platforms: platforms) { platform, config, world throws(DeviceError) in
            make(platform, world, try Settings.settings(config.appSettings, of: config))
        }
    }
}

extension DeviceConfig {
    /// `config.app`, with the top-level `variant` under it unless `config.app` names one.
    var appSettings: [String: StoredValue] {
        let topLevel: [String: StoredValue] = variant.map { ["variant": .string($0)] } ?? [:]
        return topLevel.merging(app ?? [:]) { _, app in app }
    }

    /// Whether `member` of the app's settings came from the top level (`config.variant`).
    func isTopLevel(_ member: String) -> Bool {
        member == "variant" && variant != nil && app?["variant"] == nil
    }
}

extension AppConfiguration {
    /// The app's settings from the device's `config.app`, errors named as the request names them
    /// (`config.app.frictionThresholdsMinutes`, or `config.variant` when given there).
    static func settings(_ values: [String: StoredValue], of config: DeviceConfig) throws(DeviceError) -> Self {
        do {
            return try decode(values)
        } catch {
            if case .invalidArgument(let field, _) = error, config.isTopLevel(field) { throw error.inside("config") }
            throw error.inside("config.app")
        }
    }
}

extension SimulatedDevice: InvariantContext {
    public var catalog: CategoryCatalog { platform.catalog }

    public var traceSoFar: ArraySlice<TraceEntry<Effect>> { trace.recorder.entries(after: 0) }

    public func storeValue(suite: String, key: String) throws(DeviceError) -> StoredValue? {
        try storeGet(suite: suite, key: key)
    }

    public func shieldStores() throws(DeviceError) -> [String: ShieldSettings] {
        try shields().stores
    }
}
