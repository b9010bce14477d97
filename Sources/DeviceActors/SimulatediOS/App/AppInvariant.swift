import ExtensionSandbox

/// A rule an app must keep whatever the interleaving: built in per app, on by default in every
/// scenario, checked after every step and at the end (docs/scenarios.md).
public struct AppInvariant: Sendable {
    /// The name a failure reports (`invariant`).
    public let name: String
    /// What the rule says, for docs and failure messages.
    public let rule: String
    /// Why the device breaks the rule now, or nil.
    public let violation: @Sendable (any InvariantContext) throws(DeviceError) -> String?

    public init(
        name: String, rule: String, violation: @escaping @Sendable (any InvariantContext) throws(DeviceError) -> String?
    ) {
        self.name = name
        self.rule = rule
        self.violation = violation
    }
}

/// What an invariant may look at: the device as an observer sees it, between two steps. Reading
/// it changes nothing (no trace entries, nothing for the race detector).
public protocol InvariantContext {
    /// The app's name (`clarity`); its processes trace as `<appName>.app`, `<appName>.monitor`….
    var appName: String { get }
    var calendar: DeviceCalendar { get }
    var catalog: CategoryCatalog { get }
    /// Everything traced so far, oldest first.
    var traceSoFar: ArraySlice<TraceEntry<Effect>> { get }
    /// The App Group value of `key` in `suite`, nil when absent.
    func storeValue(suite: String, key: String) throws(DeviceError) -> StoredValue?
    /// Each ManagedSettings store's shield settings, by store name.
    func shieldStores() throws(DeviceError) -> [String: ShieldSettings]
}
