import ExtensionSandbox

/// A rule an app must keep whatever the interleaving: built in per app, on by default in every
/// scenario, checked after every step and at the end (docs/scenarios.md).
///
/// Each schedule gets a fresh ``InvariantCheck`` from ``start``; it is shown the trace entries
/// added since its last look, so what it learns from the trace it keeps, and a schedule of n steps
/// costs n looks at new entries, not n re-reads of the whole trace.
public struct AppInvariant: Sendable {
    /// The name a failure reports (`invariant`).
    public let name: String
    /// What the rule says, for docs and failure messages.
    public let rule: String
    /// A fresh check, for one run of one device.
    public let start: @Sendable () -> any InvariantCheck

    public init(name: String, rule: String, start: @escaping @Sendable () -> any InvariantCheck) {
        self.name = name
        self.rule = rule
        self.start = start
    }
}

/// One invariant's check over one run.
public protocol InvariantCheck {
    /// Why the device breaks the rule now, or nil. `newEntries` are the trace entries recorded
    /// since the last call (all of them at the first).
    mutating func violation(
        in context: any InvariantContext, newEntries: ArraySlice<TraceEntry<Effect>>
    ) throws(DeviceError) -> String?
}

/// What an invariant may look at: the device as an observer sees it, between two steps. Reading
/// it changes nothing (no trace entries, nothing for the race detector).
public protocol InvariantContext {
    /// The app's name (`dailylimit`); its processes trace as `<appName>.app`, `<appName>.monitor`….
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
