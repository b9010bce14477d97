/// `DeviceActivityMonitor`: the monitor extension's callbacks, with Apple's names. Every
/// callback has a default that does nothing, as the `open` superclass methods do. Each comes
/// twice: with iOS's typed names (`intervalDidStart(for activity: DeviceActivityName)`, as code
/// ported from iOS overrides it) and with plain strings; the platform calls the typed one, whose
/// default calls the string one. Implement either.
public protocol DeviceActivityMonitor: Sendable {
    func intervalDidStart(for activity: DeviceActivityName) async throws
    func intervalDidEnd(for activity: DeviceActivityName) async throws
    func eventDidReachThreshold(_ event: DeviceActivityEvent.Name, activity: DeviceActivityName) async throws
    func intervalWillStartWarning(for activity: DeviceActivityName) async throws
    func intervalWillEndWarning(for activity: DeviceActivityName) async throws
    func eventWillReachThresholdWarning(_ event: DeviceActivityEvent.Name, activity: DeviceActivityName) async throws
    func intervalDidStart(for activity: String) async throws
    func intervalDidEnd(for activity: String) async throws
    func eventDidReachThreshold(_ event: String, activity: String) async throws
    func intervalWillStartWarning(for activity: String) async throws
    func intervalWillEndWarning(for activity: String) async throws
    func eventWillReachThresholdWarning(_ event: String, activity: String) async throws
}

extension DeviceActivityMonitor {
    public func intervalDidStart(for activity: DeviceActivityName) async throws { try await intervalDidStart(for: activity.rawValue) }
    public func intervalDidEnd(for activity: DeviceActivityName) async throws { try await intervalDidEnd(for: activity.rawValue) }
    public func eventDidReachThreshold(_ event: DeviceActivityEvent.Name, activity: DeviceActivityName) async throws {
        try await eventDidReachThreshold(event.rawValue, activity: activity.rawValue)
    }
    public func intervalWillStartWarning(for activity: DeviceActivityName) async throws {
        try await intervalWillStartWarning(for: activity.rawValue)
    }
    public func intervalWillEndWarning(for activity: DeviceActivityName) async throws {
        try await intervalWillEndWarning(for: activity.rawValue)
    }
    public func eventWillReachThresholdWarning(_ event: DeviceActivityEvent.Name, activity: DeviceActivityName) async throws {
        try await eventWillReachThresholdWarning(event.rawValue, activity: activity.rawValue)
    }
    public func intervalDidStart(for activity: String) async throws {}
    public func intervalDidEnd(for activity: String) async throws {}
    public func eventDidReachThreshold(_ event: String, activity: String) async throws {}
    public func intervalWillStartWarning(for activity: String) async throws {}
    public func intervalWillEndWarning(for activity: String) async throws {}
    public func eventWillReachThresholdWarning(_ event: String, activity: String) async throws {}

    /// Dispatches a platform callback to the matching method.
    @_spi(Host) public func receive(_ callback: MonitorCallback) async throws {
        switch callback {
        case .intervalDidStart(let activity): try await intervalDidStart(for: DeviceActivityName(activity))
        case .intervalDidEnd(let activity): try await intervalDidEnd(for: DeviceActivityName(activity))
        case .eventDidReachThreshold(let event, let activity):
            try await eventDidReachThreshold(DeviceActivityEvent.Name(event), activity: DeviceActivityName(activity))
        case .intervalWillStartWarning(let activity): try await intervalWillStartWarning(for: DeviceActivityName(activity))
        case .intervalWillEndWarning(let activity): try await intervalWillEndWarning(for: DeviceActivityName(activity))
        case .eventWillReachThresholdWarning(let event, let activity):
            try await eventWillReachThresholdWarning(DeviceActivityEvent.Name(event), activity: DeviceActivityName(activity))
        }
    }
}
