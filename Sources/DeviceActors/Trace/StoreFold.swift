@_spi(Host) import SimulatediOS

/// The App Group (every suite) and the ManagedSettings stores' shields, folded from a trace:
/// `store.write` sets a key to the value's text, `store.remove` drops it, `shield.apply` sets a
/// store's shield and `shield.clear` empties it. A pure fold of what the trace says, so that a
/// report shows the device's stores at any sequence without asking the device.
public struct StoreFold: Sendable, Equatable {
    /// The longest value text kept (``ValueText``): a longer one is cut, ending in `…`.
    static let valueLimit = 400

    /// suite → key → the value as compact JSON (data holding JSON as what it holds).
    public private(set) var appGroup: [String: [String: String]] = [:]
    /// store → its shield, for the stores that shield something.
    public private(set) var shields: [String: ShieldSettings] = [:]

    public init() {}

    /// Folds one effect in.
    public mutating func apply(_ effect: Effect) {
        switch effect {
        case .storeWrite(let suite, let key, let value):
            appGroup[suite, default: [:]][key] = ValueText.short(value, limit: Self.valueLimit)
        case .storeRemove(let suite, let key):
            appGroup[suite]?[key] = nil
            if appGroup[suite]?.isEmpty == true { appGroup[suite] = nil }
        case .shieldApply(let store, let applications, let categories, let webDomains):
            let settings = ShieldSettings(
                applications: Set(applications), applicationCategories: categories, webDomains: Set(webDomains))
            shields[store] = settings.isEmpty ? nil : settings
        case .shieldClear(let store):
            shields[store] = nil
        default:
            break
        }
    }

    /// What differs from `before`: per suite the keys written, changed or removed; the stores
    /// whose shield changed.
    public func changes(since before: StoreFold) -> (appGroup: [String: [String]], shields: [String]) {
        var keys: [String: [String]] = [:]
        for suite in Set(appGroup.keys).union(before.appGroup.keys) {
            let now = appGroup[suite] ?? [:]
            let then = before.appGroup[suite] ?? [:]
            let changed = Set(now.keys).union(then.keys).filter { now[$0] != then[$0] }
            if !changed.isEmpty { keys[suite] = changed.sorted() }
        }
        let stores = Set(shields.keys).union(before.shields.keys).filter { shields[$0] != before.shields[$0] }
        return (keys, stores.sorted())
    }
}
