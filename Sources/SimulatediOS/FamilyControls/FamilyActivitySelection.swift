import Foundation

/// `ApplicationToken`: an app the user picked in `FamilyActivityPicker`, opaque to the app (as on
/// iOS, it cannot tell which app it is): `Codable`, so apps keep it in the App Group; `Hashable`,
/// so they compare and key by it. Only the platform maps it to the app it stands for.
public struct ApplicationToken: Hashable, Sendable, Codable, CustomStringConvertible {
    @_spi(Host) public let bundleIdentifier: String

    @_spi(Host) public init(bundleIdentifier: String) {
        self.bundleIdentifier = bundleIdentifier
    }

    public init(from decoder: any Decoder) throws {
        bundleIdentifier = try OpaqueToken.decode("app", from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try OpaqueToken.encode("app", bundleIdentifier, to: encoder)
    }

    public var description: String { "ApplicationToken(…)" }
}

/// `ActivityCategoryToken`: a category the user picked, opaque to the app.
public struct ActivityCategoryToken: Hashable, Sendable, Codable, CustomStringConvertible {
    @_spi(Host) public let category: String

    @_spi(Host) public init(category: String) {
        self.category = category
    }

    public init(from decoder: any Decoder) throws {
        category = try OpaqueToken.decode("category", from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try OpaqueToken.encode("category", category, to: encoder)
    }

    public var description: String { "ActivityCategoryToken(…)" }
}

/// `WebDomainToken`: a website the user picked, opaque to the app.
public struct WebDomainToken: Hashable, Sendable, Codable, CustomStringConvertible {
    @_spi(Host) public let domain: String

    @_spi(Host) public init(domain: String) {
        self.domain = domain
    }

    public init(from decoder: any Decoder) throws {
        domain = try OpaqueToken.decode("web", from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try OpaqueToken.encode("web", domain, to: encoder)
    }

    public var description: String { "WebDomainToken(…)" }
}

/// `FamilyActivitySelection`: what the user picked, as tokens. `Codable`, as apps store it; a
/// selection stored before web domains existed reads back with none.
public struct FamilyActivitySelection: Hashable, Sendable, Codable {
    public var applicationTokens: Set<ApplicationToken>
    public var categoryTokens: Set<ActivityCategoryToken>
    public var webDomainTokens: Set<WebDomainToken>

    public init(
        applicationTokens: Set<ApplicationToken> = [], categoryTokens: Set<ActivityCategoryToken> = [],
        webDomainTokens: Set<WebDomainToken> = []
    ) {
        self.applicationTokens = applicationTokens
        self.categoryTokens = categoryTokens
        self.webDomainTokens = webDomainTokens
    }

    private enum CodingKeys: String, CodingKey { case applicationTokens, categoryTokens, webDomainTokens }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        applicationTokens = try c.decode(Set<ApplicationToken>.self, forKey: .applicationTokens)
        categoryTokens = try c.decode(Set<ActivityCategoryToken>.self, forKey: .categoryTokens)
        webDomainTokens = try c.decodeIfPresent(Set<WebDomainToken>.self, forKey: .webDomainTokens) ?? []
    }

    /// Tokens in a fixed order: a `Set` encodes in the process's hash order, which changes from
    /// one run to the next, and the same pick must store the same bytes (the trace's
    /// `store.write`, a replay, a snapshot) in every run.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(applicationTokens.sorted { $0.bundleIdentifier < $1.bundleIdentifier }, forKey: .applicationTokens)
        try c.encode(categoryTokens.sorted { $0.category < $1.category }, forKey: .categoryTokens)
        try c.encode(webDomainTokens.sorted { $0.domain < $1.domain }, forKey: .webDomainTokens)
    }
}

/// `FamilyActivityPicker`, the system's picker the user chooses apps in. The simulated user
/// picks through the app's intent (its arguments name the apps and categories, as `clarityctl
/// intent … apps=[…]` gives them); the picker turns the pick into tokens, and from then on the
/// app holds only tokens, as on iOS.
public struct FamilyActivityPicker: Sendable {
    let catalog: CategoryCatalog

    /// The selection the user made: `applications` are the apps' bundle ids, `categories` the
    /// categories' names (`social`, `games`; `docs/platform.md`, App categories).
    public func selection(applications: [String], categories: [String] = []) -> FamilyActivitySelection {
        FamilyActivitySelection(
            applicationTokens: Set(applications.map(ApplicationToken.init(bundleIdentifier:))),
            categoryTokens: Set(categories.map(ActivityCategoryToken.init(category:))))
    }

    /// The selection the user made, websites too: `webDomains` are their domains (`reddit.com`,
    /// as the user typed it, kept as iOS keeps a domain: lowercased, a leading `www.` kept,
    /// ``WebDomain/normalized(_:)``). A website that is no domain (`reddit..com`, a control
    /// character) the picker does not take: refused (``DeviceError/invalidArgument(field:reason:)``,
    /// `webDomains[i]`).
    public func selection(applications: [String], categories: [String] = [], webDomains: [String]) throws(DeviceError)
        -> FamilyActivitySelection
    {
        var selection = self.selection(applications: applications, categories: categories)
        for (index, domain) in webDomains.enumerated() {
            do {
                selection.webDomainTokens.insert(WebDomainToken(domain: try WebDomain.normalized(domain)))
            } catch {
                throw .invalidArgument(field: "webDomains[\(index)]", reason: error.reason)
            }
        }
        return selection
    }
}

/// How a token encodes: opaque bytes, base64 in JSON (as `JSONEncoder` writes iOS's token data).
private enum OpaqueToken {
    static func encode(_ kind: String, _ value: String, to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Data("\(kind):\(value)".utf8))
    }

    static func decode(_ kind: String, from decoder: any Decoder) throws -> String {
        let container = try decoder.singleValueContainer()
        let text = String(decoding: try container.decode(Data.self), as: UTF8.self)
        guard text.hasPrefix("\(kind):") else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a \(kind) token")
        }
        return String(text.dropFirst(kind.count + 1))
    }
}
