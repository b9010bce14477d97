import ExtensionSandbox

/// The shield settings of one named `ManagedSettingsStore`: only what was written to it.
public struct ShieldSettings: Sendable, Hashable, Codable {
    public var applications: Set<String> = []
    public var applicationCategories: CategoryPolicy = .none
    /// `shield.webDomains`: the websites shielded in Safari, by domain.
    public var webDomains: Set<String> = []

    public var isEmpty: Bool { applications.isEmpty && applicationCategories.isNone && webDomains.isEmpty }

    public init(applications: Set<String> = [], applicationCategories: CategoryPolicy = .none, webDomains: Set<String> = []) {
        self.applications = applications
        self.applicationCategories = applicationCategories
        self.webDomains = webDomains
    }

    private enum CodingKeys: String, CodingKey { case applications, applicationCategories, webDomains }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        applications = try c.decode(Set<String>.self, forKey: .applications)
        applicationCategories = try c.decode(CategoryPolicy.self, forKey: .applicationCategories)
        webDomains = try c.decodeIfPresent(Set<String>.self, forKey: .webDomains) ?? []
    }

    /// Applications sorted: a `Set` encodes in the process's hash order, which differs from one
    /// run to the next, and answers and snapshots must not. Web domains only when there are any,
    /// so that a store without them reads as it did before they existed.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(applications.sorted(), forKey: .applications)
        try c.encode(applicationCategories, forKey: .applicationCategories)
        if !webDomains.isEmpty { try c.encode(webDomains.sorted(), forKey: .webDomains) }
    }

    /// Whether this store shields the frontmost `name` (an app, or a website as
    /// ``WebDomain/foregroundName(_:)``), and how. Application categories never cover a website:
    /// iOS shields those through `shield.webDomainCategories`, which this SDK does not have.
    @_spi(Host) public func shieldReason(for name: String, category: String?) -> ShieldReason? {
        if let domain = WebDomain.domain(ofForegroundName: name) {
            return webDomains.contains(domain) ? .application : nil
        }
        if applications.contains(name) { return .application }
        return applicationCategories.shields(app: name, in: category) ? .category(category ?? "all") : nil
    }
}

extension ShieldSettings {
    /// Whether any of `stores` shields `app`, and how: by its token (for a website, its domain's)
    /// before through its catalog category, the first store's category otherwise. The rule the
    /// shield flow applies, for whoever holds stores of their own (a report folding a trace's
    /// `shield.apply` and `shield.clear`, docs/screen.md).
    @_spi(Host) public static func shieldReason(
        for app: String, in stores: some Sequence<ShieldSettings>, catalog: CategoryCatalog
    ) -> ShieldReason? {
        let category = catalog.category(of: app)
        var viaCategory: ShieldReason?
        for settings in stores {
            switch settings.shieldReason(for: app, category: category) {
            case .application: return .application
            case let reason?: viaCategory = viaCategory ?? reason
            case nil: break
            }
        }
        return viaCategory
    }
}

/// Why a shield covers an app: through its token (for a website, its domain's token), or through
/// its category.
public enum ShieldReason: Sendable, Equatable {
    case application
    case category(String)
}

/// The ManagedSettings agent: every named store of the device and their effective union
/// (docs/platform.md: most restrictive wins; clearing one store never lifts another's
/// shield). An actor: each store access is a scheduling point. A write that changes nothing is
/// not traced.
///
/// The system reacts to a write when it lands (docs/platform.md, "The system reacts to writes
/// when they land"): each write that changes a store starts the observer (SpringBoard's
/// re-check of the frontmost app) in a world task of its own, beside the writer, which goes on
/// with its callback. Every change bumps ``version``, so that a re-check that read the stores
/// before another did can tell it is stale.
///
/// Store names are per app, as on iOS: a store is ``StoreID`` (the owning app, the name), so two
/// apps on one device that both name a store `friction` have two stores, each app its own limit
/// of ``maxStores``; the effective shield is the union over every app's stores.
@_spi(Host) public actor ManagedSettingsAgent: WorldActor {
    /// Apple's limits: up to 50 named stores, 50 application tokens per store.
    @_spi(Host) public static let maxStores = 50
    @_spi(Host) public static let maxApplications = 50
    @_spi(Host) public static let maxCategories = 50
    @_spi(Host) public static let maxWebDomains = 50

    @_spi(Host) public nonisolated let executor: WorldActorExecutor
    private let trace: DeviceTrace
    private let catalog: CategoryCatalog
    /// A store: the app it belongs to and its name within that app.
    @_spi(Host) public struct StoreID: Hashable, Sendable {
        public let app: String
        public let name: String
    }

    private var stores: [StoreID: ShieldSettings] = [:]
    private let tasks: WorldTasks
    /// Started in a world task of its own after every write that changes a store.
    private var onChange: (@Sendable () async -> Void)?
    /// How many writes changed a store (a restore counts too): orders what readers saw.
    @_spi(Host) public private(set) var version = 0

    @_spi(Host) public init(executor: WorldActorExecutor, tasks: WorldTasks, trace: DeviceTrace, catalog: CategoryCatalog) {
        self.executor = executor
        self.tasks = tasks
        self.trace = trace
        self.catalog = catalog
    }

    /// The system's reaction to a write (SpringBoard re-checking the frontmost app's shield).
    @_spi(Host) public func setObserver(_ onChange: @escaping @Sendable () async -> Void) {
        self.onChange = onChange
    }

    /// A store changed: count it and let the system react, in a task of its own.
    private func changed() {
        version += 1
        guard let onChange else { return }
        tasks.spawn { await onChange() }
    }

    /// `app`'s stores by name (`shields.get`, snapshots).
    @_spi(Host) public func stores(of app: String) -> [String: ShieldSettings] {
        var named: [String: ShieldSettings] = [:]
        for (id, settings) in stores where id.app == app { named[id.name] = settings }
        return named
    }

    @_spi(Host) public func settings(of store: StoreID) -> ShieldSettings { stores[store] ?? ShieldSettings() }

    @_spi(Host) public func setShield(
        store: StoreID, applications: Set<String>?, categories: CategoryPolicy?, webDomains: Set<String>? = nil
    ) throws(ManagedSettingsError) {
        if stores[store] == nil, stores.keys.count(where: { $0.app == store.app }) >= Self.maxStores { throw .tooManyStores }
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
        if let webDomains {
            guard webDomains.count <= Self.maxWebDomains else { throw .tooManyWebDomains(webDomains.count) }
            settings.webDomains = webDomains
        }
        guard settings != (stores[store] ?? ShieldSettings()) else { return }
        stores[store] = settings.isEmpty ? nil : settings
        defer { changed() }
        trace.record(
            settings.isEmpty
                ? .shieldClear(store: store.name)
                : .shieldApply(
                    store: store.name, applications: settings.applications.sorted(), categories: settings.applicationCategories,
                    webDomains: settings.webDomains.sorted()))
    }

    @_spi(Host) public func clearAllSettings(store: StoreID) {
        guard stores[store] != nil else { return }
        stores[store] = nil
        trace.record(.shieldClear(store: store.name))
        changed()
    }

    /// Puts back `app`'s stores as a snapshot has them.
    @_spi(Host) public func restore(stores named: [String: ShieldSettings], of app: String) {
        for (name, settings) in named { stores[StoreID(app: app, name: name)] = settings }
        version += 1
    }

    /// Whether any store shields `app`, and how, with the ``version`` of the stores it was read
    /// from.
    @_spi(Host) public func versionedShieldReason(for app: String) -> (reason: ShieldReason?, version: Int) {
        (shieldReason(for: app), version)
    }

    /// Whether any store shields `app`, and how (token before category, stores by name).
    @_spi(Host) public func shieldReason(for app: String) -> ShieldReason? {
        let ordered = stores.keys.sorted { ($0.app, $0.name) < ($1.app, $1.name) }.map { stores[$0]! }
        return ShieldSettings.shieldReason(for: app, in: ordered, catalog: catalog)
    }

    /// The apps whose stores shield `bundle`, each once with how (an application token before a
    /// category), in the order of their names: with several apps on a device, whose
    /// ShieldConfiguration and ShieldAction serve the shield (docs/platform.md, "Several apps").
    @_spi(Host) public func shieldingApps(for bundle: String) -> [(app: String, reason: ShieldReason)] {
        let category = catalog.category(of: bundle)
        var found: [String: ShieldReason] = [:]
        for (id, settings) in stores {
            switch settings.shieldReason(for: bundle, category: category) {
            case .application: found[id.app] = .application
            case let reason?: found[id.app] = found[id.app] ?? reason
            case nil: break
            }
        }
        return found.keys.sorted().map { ($0, found[$0]!) }
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
    case tooManyWebDomains(Int)

    public var reason: String {
        switch self {
        case .tooManyStores: "tooManyStores"
        case .tooManyApplications: "tooManyApplications"
        case .tooManyCategories: "tooManyCategories"
        case .tooManyWebDomains: "tooManyWebDomains"
        }
    }
}

/// `ManagedSettingsStore(named:)` for simulated code. The same name is the same store within
/// an app (another app's store of that name is another store); `.default` is the unnamed one.
public struct ManagedSettingsStore: Sendable {
    public let name: String
    @_spi(Host) public let agent: ManagedSettingsAgent
    /// The app the store belongs to (the platform's ``Platform/appName``).
    @_spi(Host) public let app: String

    private var id: ManagedSettingsAgent.StoreID { ManagedSettingsAgent.StoreID(app: app, name: name) }

    public static let defaultName = "default"
    /// At most this many application tokens in one store's `shield.applications`.
    public static let maxApplications = ManagedSettingsAgent.maxApplications

    /// `store.shield.applications` and `.applicationCategories`, in one write.
    public func setShield(applications: Set<String>, categories: CategoryPolicy) async throws {
        try CallbackContext.platformCall(VisibleOperation("write", "ManagedSettingsStore \(name)", "shield"))
        try await agent.setShield(store: id, applications: applications, categories: categories)
    }

    /// `store.shield.applications = applications` alone (nil or empty: none), as iOS writes each
    /// shield setting on its own: the categories stay as they are, and another process may write
    /// between this and ``setShieldApplicationCategories(_:)`` — an interleaving an exploration
    /// explores. Tokens are bundle ids here (docs/sdk.md, porting table).
    public func setShieldApplications(_ applications: Set<String>?) async throws {
        try CallbackContext.platformCall(VisibleOperation("write", "ManagedSettingsStore \(name)", "shield"))
        try await agent.setShield(store: id, applications: applications ?? [], categories: nil)
    }

    /// `store.shield.applicationCategories = policy` alone (nil: none); the applications stay.
    public func setShieldApplicationCategories(_ policy: CategoryPolicy?) async throws {
        try CallbackContext.platformCall(VisibleOperation("write", "ManagedSettingsStore \(name)", "shield"))
        try await agent.setShield(store: id, applications: nil, categories: policy ?? CategoryPolicy.none)
    }

    /// `store.shield.applications = selection.applicationTokens`: as
    /// ``setShieldApplications(_:)``, with the tokens the user picked (nil or empty: none).
    public func setShieldApplications(tokens: Set<ApplicationToken>?) async throws {
        try await setShieldApplications(tokens.map { Set($0.map(\.bundleIdentifier)) })
    }

    /// `store.shield.applicationCategories = .specific(selection.categoryTokens, except: …)` or
    /// `.all(except: …)` with tokens (nil: none): as ``setShieldApplicationCategories(_:)``.
    public func setShieldApplicationCategories(tokens policy: ActivityCategoryPolicy?) async throws {
        try await setShieldApplicationCategories(policy?.names)
    }

    /// `store.shield.webDomains = domains` alone (nil or empty: none): the websites Safari covers
    /// with this app's shield; the applications and categories stay. Domains as iOS keeps them
    /// (``WebDomain/normalized(_:)``: `REDDIT.com` is `reddit.com`); one that is no domain is
    /// refused (``DeviceError/invalidArgument(field:reason:)``, `webDomains`) and nothing written.
    public func setShieldWebDomains(_ domains: Set<String>?) async throws {
        try CallbackContext.platformCall(VisibleOperation("write", "ManagedSettingsStore \(name)", "shield"))
        var normalized: Set<String> = []
        for domain in (domains ?? []).sorted() {
            do {
                normalized.insert(try WebDomain.normalized(domain))
            } catch {
                throw DeviceError.invalidArgument(field: "webDomains", reason: "\(domain.debugDescription): \(error.reason)")
            }
        }
        try await agent.setShield(store: id, applications: nil, categories: nil, webDomains: normalized)
    }

    /// `store.shield.webDomains = selection.webDomainTokens`.
    public func setShieldWebDomains(tokens: Set<WebDomainToken>?) async throws {
        try await setShieldWebDomains(tokens.map { Set($0.map(\.domain)) })
    }

    /// What was written to this store.
    public func shield() async throws -> ShieldSettings {
        try CallbackContext.platformCall(VisibleOperation("read", "ManagedSettingsStore \(name)", "shield"))
        return await agent.settings(of: id)
    }

    public func clearAllSettings() async throws {
        try CallbackContext.platformCall(VisibleOperation("clear", "ManagedSettingsStore \(name)"))
        await agent.clearAllSettings(store: id)
    }
}
