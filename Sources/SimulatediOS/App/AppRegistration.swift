/// One app as a host makes it: its description, its built-in invariants and how to build it on
/// a device. One value per app, written beside the app (`AppRegistration.dailyLimit`) and injected
/// where a device, a scenario or a daemon is assembled (docs/sdk.md, "Registering an app"), so
/// adding an app changes nothing in clarityd.
public struct AppRegistration: Sendable {
    public let description: AppDescription
    public let invariants: [AppInvariant]
    /// The server the app brings (docs/sdk.md, "Your app's own server"): its devices' requests
    /// reach an instance of it; nil for an app that talks to none.
    public let server: ServerRegistration?
    /// The operating systems it has a client for (`device.create`'s `platform`): iOS, and Android
    /// for an app with an Android client (docs/platform.md, "Android").
    public let platforms: Set<DevicePlatform>
    /// Settings the device config also takes at its top level (an older spelling of some of
    /// `config.app`), by name, with the app's defaults, which a device of the app echoes when
    /// they are not given; `config.app` wins over them. `variant` is always taken.
    public let topLevelSettings: [String: StoredValue]
    /// How the App Store lists the app, its name and category: its devices' catalog holds its
    /// bundle so (usage by category, category shields); nil: `other`, as any unlisted app.
    public let listing: CategoryCatalog.Entry?
    let make: @Sendable (Platform, ProcessExecutors, AppSettings) throws(DeviceError) -> any SimulatedApp
    /// The instance of ``server`` a device with these settings talks to.
    let instance: @Sendable (AppSettings) throws(DeviceError) -> String
    /// Decodes settings as ``make`` would, without making the app.
    let decodeSettings: @Sendable (AppSettings) throws(DeviceError) -> Void

    /// The wire name (`device.create`'s `app`).
    public var name: String { description.name }

    /// An app whose settings are `Settings`, decoded from its device's `config.app` (an unknown
    /// or ill-typed member refused, named `config.app.<member>`). `serverInstance` picks, from
    /// the settings, the instance of `server` a device talks to (devices naming one share it);
    /// `default` when not given.
    public init<Settings: AppConfiguration>(
        description: AppDescription, invariants: [AppInvariant] = [], settings: Settings.Type,
        topLevelSettings: [String: StoredValue] = [:], listing: CategoryCatalog.Entry? = nil, server: ServerRegistration? = nil,
        serverInstance: (@Sendable (Settings) -> String)? = nil, platforms: Set<DevicePlatform> = [.ios],
        make: @escaping @Sendable (Platform, ProcessExecutors, Settings) throws(DeviceError) -> any SimulatedApp
    ) {
        self.description = description
        self.listing = listing
        self.invariants = invariants
        self.server = server
        self.platforms = platforms
        self.topLevelSettings = topLevelSettings
        let name = description.name
        self.make = { platform, executors, settings throws(DeviceError) in
            try make(platform, executors, try settings.decode(Settings.self, app: name))
        }
        instance = { settings throws(DeviceError) in
            guard let serverInstance else { return "default" }
            return serverInstance(try settings.decode(Settings.self, app: name))
        }
        decodeSettings = { settings throws(DeviceError) in
            _ = try settings.decode(Settings.self, app: name)
        }
    }

    /// An app without settings: any `config.app` member is refused.
    public init(
        description: AppDescription, invariants: [AppInvariant] = [], listing: CategoryCatalog.Entry? = nil,
        server: ServerRegistration? = nil, platforms: Set<DevicePlatform> = [.ios],
        make: @escaping @Sendable (Platform, ProcessExecutors) -> any SimulatedApp
    ) {
        self.init(
            description: description, invariants: invariants, settings: NoSettings.self, listing: listing, server: server,
            platforms: platforms
        ) { platform, executors, _ in make(platform, executors) }
    }

    /// Builds the app on a device's platform, its main app's actors on `executors`, its settings
    /// from `settings`.
    @_spi(Host) public func makeApp(platform: Platform, executors: ProcessExecutors, settings: AppSettings)
        throws(DeviceError) -> any SimulatedApp
    {
        try make(platform, executors, settings)
    }

    /// The instance of its ``server`` a device of the app with `settings` talks to.
    @_spi(Host) public func serverInstance(settings: AppSettings) throws(DeviceError) -> String {
        try instance(settings)
    }

    /// Refuses `settings` as ``makeApp(platform:executors:settings:)`` would (the member named as
    /// there), without making the app: a daemon checks its devices' defaults with it at start.
    @_spi(Host) public func check(settings: AppSettings) throws(DeviceError) {
        try decodeSettings(settings)
    }
}

/// The settings of an app without any.
private struct NoSettings: AppConfiguration {
    static let members: [String] = []
}

/// An app's settings as its device's config gives them: `config.app`, over the top-level
/// spellings the app takes (``AppRegistration/topLevelSettings``, `variant`).
@_spi(Host) public struct AppSettings: Sendable {
    public let values: [String: StoredValue]
    /// The members that came from the config's top level, named `config.<member>` in errors.
    public let fromTopLevel: Set<String>

    public init(values: [String: StoredValue], fromTopLevel: Set<String>) {
        self.values = values
        self.fromTopLevel = fromTopLevel
    }

    /// `values` decoded as `Settings` for `app`, errors named as the request names them
    /// (`config.app.frictionThresholdsMinutes`, or `config.variant` when given there).
    func decode<Settings: AppConfiguration>(
        _ type: Settings.Type, app: String
    ) throws(DeviceError) -> Settings {
        do {
            return try Settings.decode(values, app: app)
        } catch {
            if case .invalidArgument(let field, _) = error, fromTopLevel.contains(Self.member(of: field)) {
                throw error.inside("config")
            }
            throw error.inside("config.app")
        }
    }

    /// `frictionThresholdsMinutes` of `frictionThresholdsMinutes[2]`.
    private static func member(of field: String) -> String {
        String(field.prefix { $0 != "[" && $0 != "." })
    }
}
