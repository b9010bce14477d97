import ExtensionSandbox
import Foundation
@_spi(Host) import SimulatediOS

/// The apps a daemon or a scenario can run, by wire name (`device.create`'s `app`): one
/// ``AppRegistration`` per app, given where the daemon is assembled (the built-in five are
/// `BuiltInApps`; an app author's own are added beside them, docs/sdk.md). Nothing here names
/// an app.
public struct AppCatalog: Sendable {
    /// The registrations, by name.
    public let registrations: [String: AppRegistration]
    /// Their names, in the order given: the first is a daemon's default app unless its
    /// clarityd.json names one, and lists (help, errors, `daemon.catalog`) follow it.
    public let available: [String]

    /// The servers the apps bring, each once, by name.
    public var servers: [ServerRegistration] {
        var byName: [String: ServerRegistration] = [:]
        for server in registrations.values.compactMap(\.server) { byName[server.name] = server }
        return byName.values.sorted { $0.name < $1.name }
    }

    /// The apps in `apps`; a later one replaces an earlier one of the same name, in its place
    /// (an author's build of a built-in app over the built-in one).
    public init(_ apps: [AppRegistration]) {
        registrations = Dictionary(apps.map { ($0.name, $0) }) { _, later in later }
        available = apps.map(\.name).reduce(into: []) { names, name in if !names.contains(name) { names.append(name) } }
    }

    /// The names of the settings the apps take at the config's top level, as a request, a
    /// scenario or clarityd.json may give them (``DeviceConfig/settings``).
    public var topLevelSettingNames: DeviceConfig.Overrides.SettingNames {
        .declared(Set(registrations.values.flatMap(\.topLevelSettings.keys)))
    }

    /// The registration of `name`, or ``DeviceError/unknownApp(_:)``.
    public func registration(named name: String) throws(DeviceError) -> AppRegistration {
        guard let registration = registrations[name] else { throw .unknownApp(name) }
        return registration
    }

    /// What each app is, in ``available``'s order, with its intents (`daemon.catalog`, help).
    public var descriptions: [AppDescription] { available.compactMap { registrations[$0]?.description } }

    /// The apps with a client for `platform`, by name, as error messages list them.
    public func apps(on platform: DevicePlatform) -> String {
        available.filter { runs($0, on: platform) }.joined(separator: ", ")
    }

    /// Whether `app` has a client for `platform` (an app not in the catalog: iOS only).
    public func runs(_ app: String, on platform: DevicePlatform) -> Bool {
        registrations[app]?.platforms.contains(platform) ?? (platform == .ios)
    }

    /// Refuses `config` where a device of `app` made with it would be refused: an app this
    /// catalog does not run, a platform it has no client for, settings it does not take — each
    /// named as `device.create` names it (`app`, `config.platform`, `config.app.<member>`).
    public func check(_ config: DeviceConfig, for app: String) throws(DeviceError) {
        guard let registration = registrations[app] else {
            throw .invalidArgument(field: "app", reason: "\(app) is not an app this daemon runs (it runs \(available.joined(separator: ", ")))")
        }
        guard runs(app, on: config.platform) else {
            throw .invalidArgument(
                field: "config.platform",
                reason: "\(app) has no \(config.platform.rawValue) client (\(config.platform.rawValue): \(apps(on: config.platform)))")
        }
        try registration.check(settings: config.settings(for: registration))
    }
}

extension Scenario {
    /// The built-in invariants a scenario checks: the platform's (`app` nil: over the whole
    /// device), then each installed app's (over what is that app's, ``AppInvariantContext``).
    var scenarioInvariants: [(app: String?, invariant: AppInvariant)] {
        PlatformInvariants.all.map { (nil, $0) } + apps.flatMap { app in app.invariants.map { (app.name, $0) } }
    }
}

extension [AppRegistration] {
    /// The apps' own bundles as the App Store lists them (``AppRegistration/listing``), for their
    /// device's catalog; the first installed wins a bundle two share.
    var listings: [String: CategoryCatalog.Entry] {
        Dictionary(
            compactMap { app in app.listing.flatMap { listing in app.description.bundleIdentifier.map { ($0, listing) } } }
        ) { first, _ in first }
    }
}

extension DeviceConfig {
    /// The settings `app` gets from this config: `config.app` over the top-level spellings the
    /// app takes (``AppRegistration/topLevelSettings``) and `variant` when given.
    func settings(for app: AppRegistration) -> AppSettings {
        var topLevel = settings.filter { app.topLevelSettings[$0.key] != nil }
        if let variant { topLevel["variant"] = .string(variant) }
        let given = self.app ?? [:]
        return AppSettings(
            values: topLevel.merging(given) { _, app in app },
            fromTopLevel: Set(topLevel.keys.filter { given[$0] == nil }))
    }

    /// This config with `app`'s defaults for the top-level settings it takes and was not given,
    /// as a device of the app echoes them (a name that is one of the config's own fields stays
    /// the config's; one given in `config.app` is echoed there only, one value in one place).
    func fillingTopLevelDefaults(of app: AppRegistration) -> DeviceConfig {
        var config = self
        let given = self.app ?? [:]
        let defaults = app.topLevelSettings.filter { Overrides.Field(rawValue: $0.key) == nil && given[$0.key] == nil }
        config.settings.merge(defaults) { given, _ in given }
        return config
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
