import ExtensionSandbox

/// The shield settings of one named `ManagedSettingsStore`: only what was written to it.
public struct ShieldSettings: Sendable, Hashable, Codable {
    public var applications: Set<String> = []
    public var applicationCategories: CategoryPolicy = .none

    public var isEmpty: Bool { applications.isEmpty && applicationCategories.isNone }

    public init(applications: Set<String> = [], applicationCategories: CategoryPolicy = .none) {
        self.applications = applications
        self.applicationCategories = applicationCategories
    }

    private enum CodingKeys: String, CodingKey { case applications, applicationCategories }

    /// Applications sorted: a `Set` encodes in the process's hash order, which differs from one
    /// run to the next, and answers and snapshots must not.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(applications.sorted(), forKey: .applications)
        try c.encode(applicationCategories, forKey: .applicationCategories)
    }
}

/// Why a shield covers an app: through its token, or through its category.
public enum ShieldReason: Sendable, Equatable {
    case application
    case category(String)
}

/// The ManagedSettings agent: every named store of the device and their effective union
/// (docs/platform.md: most restrictive wins; clearing one store never lifts another's
/// shield). An actor: each store access is a scheduling point. A write that changes nothing is
/// not traced.
@_spi(Host) public actor ManagedSettingsAgent: WorldActor {
    /// Apple's limits: up to 50 named stores, 50 application tokens per store.
    @_spi(Host) public static let maxStores = 50
    @_spi(Host) public static let maxApplications = 50
    @_spi(Host) public static let maxCategories = 50

    @_spi(Host) public nonisolated let executor: WorldActorExecutor
    private let trace: DeviceTrace
    private let catalog: CategoryCatalog
    @_spi(Host) public private(set) var stores: [String: ShieldSettings]

    @_spi(Host) public init(executor: WorldActorExecutor, trace: DeviceTrace, catalog: CategoryCatalog, stores: [String: ShieldSettings] = [:]) {
        self.executor = executor
        self.trace = trace
        self.catalog = catalog
        self.stores = stores
    }

    @_spi(Host) public func settings(of store: String) -> ShieldSettings { stores[store] ?? ShieldSettings() }

    @_spi(Host) public func setShield(store: String, applications: Set<String>?, categories: CategoryPolicy?) throws(ManagedSettingsError) {
        if stores[store] == nil, stores.count >= Self.maxStores { throw .tooManyStores }
        var settings = stores[store] ?? ShieldSettings()
        if let applications {
            guard applications.count <= Self.maxApplications else { throw .tooManyApplications(applications.count) }
            settings.applications = applications
        }
        if let categories {
            if case .specific(let names, let except) = categories,
                names.count > Self.maxCategories || except.count > Self.maxApplications
            {
                throw .tooManyCategories
            }
            settings.applicationCategories = categories
        }
        guard settings != (stores[store] ?? ShieldSettings()) else { return }
        stores[store] = settings.isEmpty ? nil : settings
        trace.record(
            settings.isEmpty
                ? .shieldClear(store: store)
                : .shieldApply(
                    store: store, applications: settings.applications.sorted(), categories: settings.applicationCategories))
    }

    @_spi(Host) public func clearAllSettings(store: String) {
        guard stores[store] != nil else { return }
        stores[store] = nil
        trace.record(.shieldClear(store: store))
    }

    @_spi(Host) public func restore(stores: [String: ShieldSettings]) {
        self.stores = stores
    }

    /// Whether any store shields `app`, and how (token before category, stores by name).
    @_spi(Host) public func shieldReason(for app: String) -> ShieldReason? {
        let category = catalog.category(of: app)
        var viaCategory: ShieldReason?
        for name in stores.keys.sorted() {
            let settings = stores[name]!
            if settings.applications.contains(app) { return .application }
            if viaCategory == nil, settings.applicationCategories.shields(app: app, in: category) {
                viaCategory = .category(category ?? "all")
            }
        }
        return viaCategory
    }

    /// The effective shield: union of all stores.
    @_spi(Host) public func effective() -> (applications: [String], categories: [String]) {
        var applications = Set<String>()
        var categories = Set<String>()
        for settings in stores.values {
            applications.formUnion(settings.applications)
            switch settings.applicationCategories {
            case .none: break
            case .all: categories.insert("all")
            case .specific(let names, _): categories.formUnion(names)
            }
        }
        return (applications.sorted(), categories.sorted())
    }
}

/// Errors of the ManagedSettings agent (names as the limits they protect).
public enum ManagedSettingsError: Error, Equatable, Sendable {
    case tooManyStores
    case tooManyApplications(Int)
    case tooManyCategories

    public var reason: String {
        switch self {
        case .tooManyStores: "tooManyStores"
        case .tooManyApplications: "tooManyApplications"
        case .tooManyCategories: "tooManyCategories"
        }
    }
}

/// `ManagedSettingsStore(named:)` for simulated code. The same name is the same store;
/// `.default` is the unnamed one.
public struct ManagedSettingsStore: Sendable {
    public let name: String
    @_spi(Host) public let agent: ManagedSettingsAgent

    public static let defaultName = "default"
    /// At most this many application tokens in one store's `shield.applications`.
    public static let maxApplications = ManagedSettingsAgent.maxApplications

    /// `store.shield.applications` and `.applicationCategories`, in one write.
    public func setShield(applications: Set<String>, categories: CategoryPolicy) async throws {
        try CallbackContext.current?.checkpoint()
        try await agent.setShield(store: name, applications: applications, categories: categories)
    }

    /// What was written to this store.
    public func shield() async throws -> ShieldSettings {
        try CallbackContext.current?.checkpoint()
        return await agent.settings(of: name)
    }

    public func clearAllSettings() async throws {
        try CallbackContext.current?.checkpoint()
        await agent.clearAllSettings(store: name)
    }
}
