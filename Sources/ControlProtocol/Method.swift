/// Every method the daemon serves (docs/protocol.md). The raw value is the wire name.
public enum Method: String, Sendable, CaseIterable {
    case daemonPing = "daemon.ping"
    case daemonStatus = "daemon.status"
    case daemonShutdown = "daemon.shutdown"
    case daemonCatalog = "daemon.catalog"
    case deviceCreate = "device.create"
    case deviceList = "device.list"
    case deviceRemove = "device.remove"
    case deviceState = "device.state"
    case deviceConfig = "device.config"
    case event = "event"
    case clockAdvance = "clock.advance"
    case clockNow = "clock.now"
    case intent = "intent"
    case storeGet = "store.get"
    case storeSet = "store.set"
    case storeRemove = "store.remove"
    case storeDump = "store.dump"
    case shieldsGet = "shields.get"
    case shieldConfig = "shield.config"
    case notificationsList = "notifications.list"
    case sandboxList = "sandbox.list"
    case activityStart = "activity.start"
    case activityStop = "activity.stop"
    case activityList = "activity.list"
    case traceGet = "trace.get"
    case scenarioRun = "scenario.run"
    case scenarioReplay = "scenario.replay"
    case scenarioExplore = "scenario.explore"
}

/// Facts both the daemon and the client need.
public enum ClarityProtocol {
    /// The daemon's and client's version, reported by `daemon.ping`.
    public static let version = "0.1.0"
    /// Default largest request line, in bytes (1 MiB).
    public static let defaultMaxRequestBytes = 1 << 20
}
