import ExtensionSandbox

/// A local notification as delivered: when, what, and which actor posted it.
public struct DeliveredNotification: Sendable, Hashable, Codable {
    public let t: Double
    public let title: String
    public let body: String
    public let source: String
    /// Delivered while Focus mode was on: silenced, shown only in the list.
    public let silenced: Bool
}

/// The device's local notification center (`UNUserNotificationCenter`): keeps what was
/// delivered, newest last (at most `capacity`).
@_spi(Host) public actor NotificationAgent: WorldActor {
    @_spi(Host) public nonisolated let executor: WorldActorExecutor
    private let clock: VirtualClock
    private let trace: DeviceTrace
    private let capacity = 10_000
    @_spi(Host) public private(set) var delivered: [DeliveredNotification] = []

    @_spi(Host) public init(executor: WorldActorExecutor, clock: VirtualClock, trace: DeviceTrace) {
        self.executor = executor
        self.clock = clock
        self.trace = trace
    }

    @_spi(Host) public func add(title: String, body: String, source: String, silenced: Bool) {
        delivered.append(
            DeliveredNotification(t: clock.now.seconds, title: title, body: body, source: source, silenced: silenced))
        if delivered.count > capacity { delivered.removeFirst(delivered.count - capacity) }
        trace.record(.notification(title: title, body: body))
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

    /// Delivers a local notification now (`add(_:)` with an immediate trigger).
    public func add(title: String, body: String) async throws {
        let context = CallbackContext.current
        try CallbackContext.platformCall(VisibleOperation("post", "notification", title))
        let silenced = await system.focusModeOn
        await agent.add(title: title, body: body, source: context?.actor ?? "system", silenced: silenced)
    }
}
