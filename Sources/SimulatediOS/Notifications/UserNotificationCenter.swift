import ExtensionSandbox

/// A local notification as delivered: when, what, and which actor posted it.
public struct DeliveredNotification: Sendable, Hashable, Codable {
    public let t: Double
    public let title: String
    public let body: String
    public let source: String
    /// Delivered while Focus mode was on: silenced, shown only in the list.
    public let silenced: Bool
    /// A push's category (the app's own kind, docs/platform.md, "Network"); nil for a
    /// local notification.
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
/// config `notificationPermission`, docs/platform.md, "Notifications").
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
    @_spi(Host) public nonisolated let clock: VirtualClock
    private let trace: DeviceTrace
    private let capacity = 10_000
    @_spi(Host) public private(set) var delivered: [DeliveredNotification] = []
    /// The app's authorization; kept in the device's snapshot.
    @_spi(Host) public private(set) var authorization = UNAuthorizationStatus.notDetermined
    /// The answer the user gives when first asked (config, changeable with `device.config`).
    private var permission = NotificationPermission.allow
    /// Requests waiting for their trigger, by identifier; kept in the device's snapshot.
    @_spi(Host) public private(set) var pending: [String: PendingNotification] = [:]
    private var generation = 0

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

    /// Keeps `request` pending until `due` (replacing one of its identifier), traced
    /// `notification.scheduled`; returns what the timer must name to deliver it.
    @_spi(Host) public func schedule(_ request: UNNotificationRequest, source: String, due: VirtualInstant, dueTime: String)
        -> PendingNotification
    {
        generation += 1
        let entry = PendingNotification(request: request, source: source, dueMilliseconds: due.milliseconds, generation: generation)
        pending[request.identifier] = entry
        trace.record(.notificationScheduled(identifier: request.identifier, title: request.content.title, due: dueTime))
        return entry
    }

    /// The request a timer armed for `entry` delivers now, if it is still pending as armed; a
    /// one-off leaves the pending list.
    @_spi(Host) public func takeDue(_ entry: PendingNotification) -> PendingNotification? {
        guard pending[entry.request.identifier]?.generation == entry.generation else { return nil }
        if entry.request.trigger?.repeats != true { pending[entry.request.identifier] = nil }
        return entry
    }

    /// `removePendingNotificationRequests(withIdentifiers:)` (all with nil), traced per request.
    @_spi(Host) public func removePending(_ identifiers: [String]?) {
        for identifier in (identifiers ?? Array(pending.keys)).sorted() where pending.removeValue(forKey: identifier) != nil {
            trace.record(.notificationRemoved(identifier: identifier))
        }
    }

    /// Puts back the pending requests a snapshot kept (their timers are armed again by the caller).
    @_spi(Host) public func restore(pending saved: [PendingNotification]) {
        for entry in saved {
            pending[entry.request.identifier] = entry
            generation = max(generation, entry.generation)
        }
    }

    /// Puts back the notifications a snapshot kept, oldest first (at most `capacity`, the newest).
    @_spi(Host) public func restore(delivered saved: [DeliveredNotification]) {
        delivered = Array((delivered + saved).suffix(capacity))
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
    /// The device's calendar: calendar triggers match in its zone.
    @_spi(Host) public let calendar: DeviceCalendar

    @_spi(Host) public init(agent: NotificationAgent, system: SystemAgent, calendar: DeviceCalendar) {
        self.agent = agent
        self.system = system
        self.calendar = calendar
    }

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

    /// `add(_:)`: a request without a trigger is delivered now (``add(title:body:)``); one with a
    /// trigger waits, pending, until its time on the device's clock, then is delivered as by
    /// `add(title:body:)` then (authorization and Focus as they are at delivery), under the
    /// process that added it; a repeating one is armed again. An identifier already pending is
    /// replaced. A time interval ≤ 0, or under 60 s when repeating, and components that never
    /// match are refused (-32602 `trigger`), as iOS refuses them.
    public func add(_ request: UNNotificationRequest) async throws {
        guard let trigger = request.trigger else {
            return try await add(title: request.content.title, body: request.content.body)
        }
        let source = CallbackContext.current?.actor ?? "system"
        try CallbackContext.platformCall(VisibleOperation("post", "notification", request.identifier))
        guard let due = Self.due(of: trigger, after: agent.clock.now, calendar: calendar) else {
            throw DeviceError.invalidArgument(
                field: "trigger", reason: "a time interval > 0 (≥ 60 s when repeating), or components some date matches")
        }
        await arm(await agent.schedule(request, source: source, due: due, dueTime: calendar.isoString(due)))
    }

    /// `pendingNotificationRequests()`, by identifier.
    public func pendingNotificationRequests() async throws -> [UNNotificationRequest] {
        try CallbackContext.platformCall(VisibleOperation("read", "notification", "pending"))
        return await agent.pending.values.map(\.request).sorted { $0.identifier < $1.identifier }
    }

    /// `removePendingNotificationRequests(withIdentifiers:)`.
    public func removePendingNotificationRequests(withIdentifiers identifiers: [String]) async throws {
        try CallbackContext.platformCall(VisibleOperation("remove", "notification", identifiers.joined(separator: ",")))
        await agent.removePending(identifiers)
    }

    /// `removeAllPendingNotificationRequests()`.
    public func removeAllPendingNotificationRequests() async throws {
        try CallbackContext.platformCall(VisibleOperation("remove", "notification", "all"))
        await agent.removePending(nil)
    }

    /// Arms the device's clock for `entry`: at its time it is delivered if still pending as armed,
    /// and a repeating one is armed for its next time (also after a restore).
    @_spi(Host) public func arm(_ entry: PendingNotification) async {
        let (agent, system, calendar) = (agent, system, calendar)
        agent.clock.schedule(at: VirtualInstant(milliseconds: entry.dueMilliseconds), label: "notification \(entry.request.identifier)") {
            guard let due = await agent.takeDue(entry) else { return }
            let content = due.request.content
            await agent.add(title: content.title, body: content.body, source: due.source, silenced: await system.focusModeOn)
            guard let trigger = due.request.trigger, trigger.repeats,
                let next = Self.due(of: trigger, after: agent.clock.now, calendar: calendar)
            else { return }
            await UserNotificationCenter(agent: agent, system: system, calendar: calendar).arm(
                await agent.schedule(due.request, source: due.source, due: next, dueTime: calendar.isoString(next)))
        }
    }

    /// When `trigger` next fires after `now`; nil for one iOS refuses or that never fires.
    static func due(of trigger: UNNotificationTrigger, after now: VirtualInstant, calendar: DeviceCalendar) -> VirtualInstant? {
        switch trigger {
        case .timeInterval(let seconds, let repeats):
            guard seconds.isFinite, seconds > 0, seconds <= 10 * 365 * 86_400, !repeats || seconds >= 60 else { return nil }
            return now + .seconds(seconds)
        case .calendar(let components, _):
            guard !components.isEmpty,
                let date = calendar.calendar.nextDate(
                    after: calendar.date(now), matching: components.dateComponents, matchingPolicy: .nextTime)
            else { return nil }
            return calendar.instant(date)
        }
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
