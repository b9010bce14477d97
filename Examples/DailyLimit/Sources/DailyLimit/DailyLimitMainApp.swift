import SimulatediOS

/// The main app: where the user picks the apps to limit.
actor DailyLimitMainApp: WorldActor {
    nonisolated let executor: WorldActorExecutor
    private let process: DailyLimitProcess

    init(executor: WorldActorExecutor, process: DailyLimitProcess) {
        self.executor = executor
        self.process = process
    }

    /// First launch: asks to post notifications (`requestAuthorization`), which the monitor's
    /// "limit reached" notice needs; iOS asks the user once and remembers the answer.
    func launch() async throws {
        try await process.platform.notificationCenter.requestAuthorization()
    }

    /// Saves the apps for the extensions and monitors them for the rest of each day: the event
    /// fires once their usage today reaches the limit.
    func limit(_ apps: [String]) async throws -> DailyLimitStatus {
        try await process.sharedDefaults.set(.array(apps.map(StoredValue.string)), forKey: DailyLimitKeys.limitedApps)
        let minutes = process.settings.dailyLimitMinutes
        try await process.platform.deviceActivityCenter.startMonitoring(
            DailyLimitKeys.activity,
            during: DeviceActivitySchedule(
                intervalStart: DateComponentsSpec(hour: 0, minute: 0, second: 0),
                intervalEnd: DateComponentsSpec(hour: 23, minute: 59, second: 59), repeats: true),
            events: [
                DailyLimitKeys.limitReached: DeviceActivityEvent(
                    applications: Set(apps), threshold: DateComponentsSpec(hour: minutes / 60, minute: minutes % 60))
            ])
        return try await status()
    }

    /// Stops monitoring and lifts the shield.
    func removeLimit() async throws -> DailyLimitStatus {
        try await process.platform.deviceActivityCenter.stopMonitoring([DailyLimitKeys.activity])
        try await process.store.clearAllSettings()
        try await process.sharedDefaults.removeObject(forKey: DailyLimitKeys.limitedApps)
        return try await status()
    }

    func status() async throws -> DailyLimitStatus {
        DailyLimitStatus(
            limitedApps: try await process.sharedDefaults.stringArray(forKey: DailyLimitKeys.limitedApps) ?? [],
            dailyLimitMinutes: process.settings.dailyLimitMinutes,
            requestsToday: try await process.sharedDefaults.integer(forKey: process.requestsKey),
            shielded: !(try await process.store.shield().isEmpty))
    }
}

/// What the main app shows (`status`, and `device.state`'s `app`).
public struct DailyLimitStatus: Codable, Sendable, Equatable {
    public var limitedApps: [String]
    public var dailyLimitMinutes: Int
    public var requestsToday: Int
    public var shielded: Bool
}
