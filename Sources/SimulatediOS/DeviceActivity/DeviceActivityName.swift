/// `DeviceActivityName`: an activity's name as iOS types it. Code ported from iOS keeps its
/// `extension DeviceActivityName { static let daily = Self("daily") }` and passes it where a
/// name goes (`startMonitoring(.daily, …)`, `intervalDidStart(for: DeviceActivityName)`); the
/// platform keeps names as their raw strings.
public struct DeviceActivityName: TypedName {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

extension DeviceActivityEvent {
    /// `DeviceActivityEvent.Name`: an event's name as iOS types it
    /// (`extension DeviceActivityEvent.Name { static let limit = Self("limit") }`).
    public struct Name: TypedName {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }
}

extension DeviceActivityCenter {
    /// `startMonitoring(_:during:events:)` with iOS's typed names.
    public func startMonitoring(
        _ activity: DeviceActivityName, during schedule: DeviceActivitySchedule,
        events: [DeviceActivityEvent.Name: DeviceActivityEvent] = [:]
    ) async throws {
        try await startMonitoring(
            activity.rawValue, during: schedule,
            events: Dictionary(uniqueKeysWithValues: events.map { ($0.key.rawValue, $0.value) }))
    }

    /// `stopMonitoring(_:)` with iOS's typed names (iOS's default, every activity, is
    /// `stopMonitoring(try await activities())`).
    public func stopMonitoring(_ activities: [DeviceActivityName]) async throws {
        try await stopMonitoring(activities.map(\.rawValue))
    }
}
