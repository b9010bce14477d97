import ExtensionSandbox
import SimulatediOS

/// The DeviceActivityMonitor extension: shields the limited apps when today's usage reaches the
/// limit, and lifts the shield when a new day's interval starts.
actor DailyLimitMonitor: WorldActor, DeviceActivityMonitor {
    nonisolated let executor: WorldActorExecutor
    private let process: DailyLimitProcess

    init(executor: WorldActorExecutor, process: DailyLimitProcess) {
        self.executor = executor
        self.process = process
    }

    func eventDidReachThreshold(_ event: String, activity: String) async throws {
        guard activity == DailyLimitKeys.activity, event == DailyLimitKeys.limitReached else { return }
        let apps = try await process.sharedDefaults.stringArray(forKey: DailyLimitKeys.limitedApps) ?? []
        try await process.store.setShield(applications: Set(apps), categories: .none)
        try await process.platform.notificationCenter.add(
            title: "Time's up", body: "You've used your \(process.settings.dailyLimitMinutes) minutes for today.")
    }

    /// A new day: the shield comes off and the requests start again from zero.
    func intervalDidStart(for activity: String) async throws {
        guard activity == DailyLimitKeys.activity else { return }
        try await process.store.clearAllSettings()
        try await process.sharedDefaults.set(.int(0), forKey: DailyLimitKeys.requestsToday)
    }
}
