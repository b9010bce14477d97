import Foundation

/// Everything of a device that must survive the daemon: written to the state directory after
/// every request that changed a store, an activity or the device's radios, and read back at start.
public struct DeviceSnapshot: Sendable, Codable {
    /// Format version of this file.
    public var format = 1
    public var name: String
    public var app: String
    public var start: String
    public var timezone: String
    public var seed: UInt64
    public var clock: ClockMode
    public var config: DeviceConfig
    public var nowMilliseconds: Int64
    public var locked: Bool
    public var foregroundApp: String?
    public var wifi: String?
    public var contacts: [Contact]
    public var suites: [String: [String: StoredValue]]
    public var managedSettings: [String: ShieldSettings]
    var activities: [String: MonitoredActivity]
    public var usageByDay: [String: [String: Int64]]
    /// The app's own data (its SwiftData store), if it keeps any.
    public var appData: Data?
    public var storeTransactions: [StoreTransaction]?
    /// The outgoing call in progress, if any.
    public var call: CallState?
}

/// How a device's clock moves: only when told (`virtual`), or with real time (`wall`).
public enum ClockMode: String, Sendable, Codable {
    case virtual
    case wall
}
