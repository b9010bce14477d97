import ExtensionSandbox

/// A local notification as delivered: when, what, and which actor posted it.
public struct DeliveredNotification: Sendable, Hashable, Codable {
    public let t: Double
    public let title: String
    public let body: String
    public let source: String
    /// Delivered while Focus mode was on: silenced, shown only in the list.
    public let silenced: Bool
    /// A push's category (APPS.md §0: The Phone's temptation kind); nil for a local notification.
    public var category: String? = nil
}

/// Whether the app may post notifications (`UNAuthorizationStatus`).
public enum UNAuthorizationStatus: String, Sendable, Codable, CaseIterable {
    /// The app never asked: nothing it posts is shown.
    case notDetermined
    /// The user said no when the app asked.
    case denied
    /// The user allowed notifications when the app asked.
    case authorized
}

/// What the simulated user answers the first time an app asks to post notifications (device
/// config `notificationPermission`, APPS.md §0).
public enum NotificationPermission: String, Sendable, Codable, NamedChoice {
    case allow
    case deny
}

/// The device's local notification center (`UNUserNotificationCenter`): the app's authorization
/// and what was delivered, newest last (at most `capacity`).
///
/// As on iOS, an app shows notifications only after it asked (`requestAuthorization`) and the
/// user allowed it; the user is asked once, and later requests return that answer. A notification
/// posted without authorization is not delivered: it is traced `notification.suppressed`.
@_spi(Host) public actor NotificationAgent: WorldActor {
    @_spi(Host) public nonisolated let executor: WorldActorExecutor
    private let clock: VirtualClock
    private let trace: DeviceTrace
    private let capacity = 10_000
    @_spi(Host) public private(set) var delivered: [DeliveredNotification] = []
    /// The app's authorization; kept in the device's snapshot.
    @_spi(Host) public private(set) var authorization = UNAuthorizationStatus.notDetermined
    /// The answer the user gives when first asked (config, changeable with `device.config`).
    private var permission = NotificationPermission.allow

    @_spi(Host) public init(executor: WorldActorExecutor, clock: VirtualClock, trace: DeviceTrace) {
        self.executor = executor
        self.clock = clock
        self.trace = trace
    }

    @_spi(Host) public func configure(permission: NotificationPermission) {
        self.permission = permission
    }

    @_spi(Host) public func restore(authorization: UNAuthorizationStatus) {
        self.authorization = authorization
    }

    /// The first request asks the user (``permission``), traced `notification.authorization`;
    /// later ones return the answer given then.
    @_spi(Host) public func requestAuthorization() -> Bool {
        if authorization == .notDetermined {
            authorization = permission == .allow ? .authorized : .denied
            trace.record(.notificationAuthorization(granted: authorization == .authorized))
        }
        return authorization == .authorized
    }

    @_spi(Host) public func add(title: String, body: String, source: String, silenced: Bool) {
        guard authorization == .authorized else {
            trace.record(.notificationSuppressed(title: title, body: body, reason: authorization.rawValue))
            return
        }
        delivered.append(
            DeliveredNotification(t: clock.now.seconds, title: title, body: body, source: source, silenced: silenced))
        if delivered.count > capacity { delivered.removeFirst(delivered.count - capacity) }
        trace.record(.notification(title: title, body: body))
    }

    /// A push the system shows for the app (APNs, FCM): like a local notification of the app's,
    /// with `source` `push` and the push's category; traced `notification.push`.
    @_spi(Host) public func deliverPush(_ push: PushMessage, silenced: Bool) {
        guard authorization == .authorized else {
            trace.record(.notificationSuppressed(title: push.title, body: push.body, reason: authorization.rawValue), by: "push")
            return
        }
        delivered.append(
            DeliveredNotification(
                t: clock.now.seconds, title: push.title, body: push.body, source: "push", silenced: silenced,
                category: push.category))
        if delivered.count > capacity { delivered.removeFirst(delivered.count - capacity) }
        trace.record(.push(title: push.title, body: push.body, category: push.category), by: "push")
    }

    @_spi(Host) public func list(since t: Double?) -> [DeliveredNotification] {
        guard let t else { return delivered }
        return delivered.filter { $0.t >= t }
    }
}

/// `UNUserNotificationCenter.current()` for simulated code.
public struct UserNotificationCenter: Sendable {
    @_spi(Host) public let agent: NotificationAgent
    @_spi(Host) public let system: SystemAgent

    /// `requestAuthorization(options:)`: asks the user the first time (the device's
    /// `notificationPermission`), then returns that answer. Until an app has asked and been
    /// allowed, ``add(title:body:)`` shows nothing.
    @discardableResult
    public func requestAuthorization() async throws -> Bool {
        try CallbackContext.platformCall(VisibleOperation("request", "notification", "authorization"))
        return await agent.requestAuthorization()
    }

    /// `notificationSettings().authorizationStatus`.
    public func authorizationStatus() async throws -> UNAuthorizationStatus {
        try CallbackContext.platformCall(VisibleOperation("read", "notification", "authorization"))
        return await agent.authorization
    }

    /// Delivers a local notification now (`add(_:)` with an immediate trigger), if the app is
    /// authorized; otherwise it is traced `notification.suppressed` and shown nowhere.
    public func add(title: String, body: String) async throws {
        let context = CallbackContext.current
        try CallbackContext.platformCall(VisibleOperation("post", "notification", title))
        let silenced = await system.focusModeOn
        await agent.add(title: title, body: body, source: context?.actor ?? "system", silenced: silenced)
    }
}
