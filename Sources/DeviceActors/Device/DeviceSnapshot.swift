import Foundation
@_spi(Host) import SimulatediOS

/// A device's data at one moment: what the daemon writes when it compacts a long journal (and
/// what state files of format 1 held), read back with ``SimulatedDevice/init(restoring:)``.
public struct DeviceSnapshot: Sendable, Codable {
    /// Format version of this file: 2 adds `random` and `traceSequence`, 3 the `trace`.
    public var format = 3
    public var name: String
    public var app: String
    public var start: String
    public var timezone: String
    public var seed: UInt64
    /// The random generator's state (the bits of ``SeededRandom/state`` as a signed number,
    /// which JSON keeps exact); nil in format 1, whose devices start their generator again
    /// from `seed`.
    public var random: Int64?
    /// The trace's last sequence number; nil in format 1.
    public var traceSequence: Int?
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
    /// Whether iOS Focus mode is on (nil: off, and in older snapshots).
    public var focusMode: Bool?
    /// False from a reboot to the first unlock, which protected data waits for (nil: true, and
    /// in older snapshots).
    public var unlockedSinceBoot: Bool?
    /// The callbacks DeviceActivity holds for the app's monitor (nil when none, and in older
    /// snapshots).
    var monitorQueue: MonitorCallbackQueue?
    public var usageByDay: [String: [String: Int64]]
    /// Today's usage as spans (nil in a snapshot written before they were kept: the
    /// `thresholdFiresOnStart` quirk then counts today's usage from the restore on).
    var usageToday: [UsageSpan]?
    /// The app's own data (its SwiftData store), if it keeps any.
    public var appData: Data?
    public var storeTransactions: [StoreTransaction]?
    /// The outgoing call in progress, if any.
    public var call: CallState?
    /// The app's notification authorization (nil in a snapshot written before it was kept: the
    /// app then asks again at launch).
    public var notificationAuthorization: UNAuthorizationStatus?
    /// Whether the main app's process is in memory (nil in older snapshots: it is).
    public var mainAppInMemory: Bool?
    /// HealthKit: samples by day, authorization asked, failures pending, background delivery
    /// (nil in older snapshots: none).
    public var health: HealthSnapshot?
    /// Internet reachability (nil in older snapshots: online).
    public var online: Bool?
    /// The user's Shortcuts personal automations (nil in older snapshots: none).
    public var automations: [Automation]?
    /// The events the device's trace kept, as `trace.get` gives them (nil before format 3).
    public var trace: [SnapshotTraceEntry]?
    /// Notification requests waiting for their trigger (nil in older snapshots: none).
    public var pendingNotifications: [PendingNotification]?
    /// Android's WorkManager works, by name (nil when none, and in older snapshots).
    public var works: [PendingWork]?
    /// The apps installed after the primary (`app`), in order, with what is theirs alone; nil
    /// on a device with one app.
    public var otherApps: [InstalledAppSnapshot]?
    /// The notifications delivered, oldest first, as `notifications.list` gives them (nil when
    /// none, and in older snapshots, whose restore lost them).
    public var notifications: [DeliveredNotification]?
    /// The trace's sequence number where the last input began: the screen's banners are those
    /// posted since (nil in older snapshots: where the trace stops, so none).
    public var lastInputSequence: Int?
}

/// What belongs to one app of several on a device, in a snapshot (``DeviceSnapshot/otherApps``):
/// its stores, its activities, its own data and whether its main app is in memory.
public struct InstalledAppSnapshot: Sendable, Codable {
    public var name: String
    public var managedSettings: [String: ShieldSettings]
    var activities: [String: MonitoredActivity]
    /// As ``DeviceSnapshot/monitorQueue``, for this app's monitor.
    var monitorQueue: MonitorCallbackQueue?
    public var appData: Data?
    public var mainAppInMemory: Bool
}

/// The device's HealthKit store in a snapshot (``DeviceSnapshot/health``).
public struct HealthSnapshot: Sendable, Codable {
    /// `dayKey` → quantity (`steps`…) → sum.
    public var days: [String: [String: Double]]
    public var asked: Bool
    public var failuresPending: Int
    public var backgroundDelivery: [String]
    public var undelivered: [String]
    /// When the system relaunches the main app to deliver, in milliseconds of virtual time.
    public var relaunchDueMilliseconds: Int64?
}

/// How a device's clock moves: only when told (`virtual`), or with real time (`wall`).
public enum ClockMode: String, Sendable, Codable, CaseIterable {
    case virtual
    case wall
}
