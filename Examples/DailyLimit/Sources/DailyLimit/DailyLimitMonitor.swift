import SimulatediOS

/// The DeviceActivityMonitor extension: shields the limited apps when today's usage reaches the
/// limit, lifts the shield when a new day's interval starts, and (first version only) zeroes
/// the shared request counter when the day's interval ends.
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

    /// A new day: the shield comes off.
    func intervalDidStart(for activity: String) async throws {
        guard activity == DailyLimitKeys.activity else { return }
        try await process.store.clearAllSettings()
    }

    /// The day is over (23:59:59). The first version zeroes the shared counter here; a press
    /// of "I need it" at that instant may have read it just before and write it back after.
    func intervalDidEnd(for activity: String) async throws {
        guard activity == DailyLimitKeys.activity, !process.settings.countRequestsPerDay else { return }
        try await process.sharedDefaults.set(.int(0), forKey: DailyLimitKeys.requestsToday)
    }
}
