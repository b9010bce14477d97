/// `DeviceActivityMonitor`: the monitor extension's callbacks, with Apple's names. Every
/// callback has a default that does nothing, as the `open` superclass methods do.
public protocol DeviceActivityMonitor: Sendable {
    func intervalDidStart(for activity: String) async throws
    func intervalDidEnd(for activity: String) async throws
    func eventDidReachThreshold(_ event: String, activity: String) async throws
    func intervalWillStartWarning(for activity: String) async throws
    func intervalWillEndWarning(for activity: String) async throws
    func eventWillReachThresholdWarning(_ event: String, activity: String) async throws
}

extension DeviceActivityMonitor {
    public func intervalDidStart(for activity: String) async throws {}
    public func intervalDidEnd(for activity: String) async throws {}
    public func eventDidReachThreshold(_ event: String, activity: String) async throws {}
    public func intervalWillStartWarning(for activity: String) async throws {}
    public func intervalWillEndWarning(for activity: String) async throws {}
    public func eventWillReachThresholdWarning(_ event: String, activity: String) async throws {}

    /// Dispatches a platform callback to the matching method.
    @_spi(Host) public func receive(_ callback: MonitorCallback) async throws {
        switch callback {
        case .intervalDidStart(let activity): try await intervalDidStart(for: activity)
        case .intervalDidEnd(let activity): try await intervalDidEnd(for: activity)
        case .eventDidReachThreshold(let event, let activity): try await eventDidReachThreshold(event, activity: activity)
        case .intervalWillStartWarning(let activity): try await intervalWillStartWarning(for: activity)
        case .intervalWillEndWarning(let activity): try await intervalWillEndWarning(for: activity)
        case .eventWillReachThresholdWarning(let event, let activity):
            try await eventWillReachThresholdWarning(event, activity: activity)
        }
    }
}
