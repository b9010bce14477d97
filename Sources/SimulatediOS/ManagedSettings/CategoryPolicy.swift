/// `ShieldSettings.ActivityCategoryPolicy`: which app categories a store shields.
///
/// Wire form: `{"policy":"none"}`, `{"policy":"all","except":[apps]}` or
/// `{"policy":"specific","categories":[names],"except":[apps]}`.
public enum CategoryPolicy: Sendable, Hashable, Codable {
    case none
    case all(except: Set<String>)
    case specific(Set<String>, except: Set<String>)

    private enum CodingKeys: String, CodingKey { case policy, categories, except }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let except = Set(try c.decodeIfPresent([String].self, forKey: .except) ?? [])
        switch try c.decode(String.self, forKey: .policy) {
        case "none": self = .none
        case "all": self = .all(except: except)
        case "specific": self = .specific(Set(try c.decode([String].self, forKey: .categories)), except: except)
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .policy, in: c, debugDescription: "policy must be none, all or specific")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .none:
            try c.encode("none", forKey: .policy)
        case .all(let except):
            try c.encode("all", forKey: .policy)
            try c.encode(except.sorted(), forKey: .except)
        case .specific(let categories, let except):
            try c.encode("specific", forKey: .policy)
            try c.encode(categories.sorted(), forKey: .categories)
            try c.encode(except.sorted(), forKey: .except)
        }
    }

    /// The category through which this policy shields `app` (in `category`), if it does.
    public func shields(app: String, in category: String?) -> Bool {
        switch self {
        case .none: false
        case .all(let except): !except.contains(app)
        case .specific(let categories, let except):
            category.map(categories.contains) == true && !except.contains(app)
        }
    }

    @_spi(Host) public var isNone: Bool { self == .none }
}

/// `ShieldSettings.ActivityCategoryPolicy<Application>` with tokens, as code ported from iOS
/// writes it: `.specific(selection.categoryTokens, except: [])`, `.all(except: allowed)`.
public enum ActivityCategoryPolicy: Sendable, Hashable {
    case none
    case all(except: Set<ApplicationToken> = [])
    case specific(Set<ActivityCategoryToken>, except: Set<ApplicationToken> = [])

    /// The same policy by names, as the store keeps it.
    var names: CategoryPolicy {
        switch self {
        case .none: .none
        case .all(let except): .all(except: Set(except.map(\.bundleIdentifier)))
        case .specific(let categories, let except):
            .specific(Set(categories.map(\.category)), except: Set(except.map(\.bundleIdentifier)))
        }
    }
}
