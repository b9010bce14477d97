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
    case deviceScreen = "device.screen"
    case notificationsList = "notifications.list"
    case sandboxList = "sandbox.list"
    case activityStart = "activity.start"
    case activityStop = "activity.stop"
    case activityList = "activity.list"
    case traceGet = "trace.get"
    case scenarioRun = "scenario.run"
    case scenarioReplay = "scenario.replay"
    case scenarioExplore = "scenario.explore"
    case scenarioCancel = "scenario.cancel"
    case traceExport = "trace.export"
    case recordStart = "record.start"
    case recordStop = "record.stop"
    /// Every instance of every server the apps registered (docs/protocol.md, "Servers"). A server
    /// may also answer `<prefix>.list` and `<prefix>.<method>` (`backend.users`): those
    /// are routed from the registrations the daemon runs.
    case serverList = "server.list"
    case serverCall = "server.call"
    case subscribe = "subscribe"
    case unsubscribe = "unsubscribe"
}

/// What the daemon sends of its own accord, as JSON-RPC notifications (no `id`), to a
/// connection that subscribed (docs/protocol.md, Subscriptions). The raw value is the `method`.
public enum ServerNotification: String, Sendable, CaseIterable {
    /// A new trace event of a subscribed device: `params` is the event as `trace.get` gives it,
    /// plus `device`.
    case trace = "trace"
    /// Events the subscription had no room for: `{"device","dropped","from","to"}`.
    case traceDropped = "trace.dropped"
    /// The subscription ended (its device is gone): `{"device","reason"}`.
    case traceEnded = "trace.ended"
    /// How far the caller's `scenario.explore` has got: `{"schedules","done","failed"}`.
    case scenarioProgress = "scenario.progress"
}

/// Facts both the daemon and the client need.
public enum ClarityProtocol {
    /// The daemon's and client's version, reported by `daemon.ping`.
    public static let version = "0.1.0"
    /// Default largest request line, in bytes (1 MiB).
    public static let defaultMaxRequestBytes = 1 << 20
}
