import SimulatediOS

/// The ShieldConfiguration extension: the shield's texts, read fresh from the App Group each
/// time (another process may have changed the count since).
actor DailyLimitShieldConfiguration: WorldActor, ShieldConfigurationDataSource {
    nonisolated let executor: WorldActorExecutor
    private let process: DailyLimitProcess

    init(executor: WorldActorExecutor, process: DailyLimitProcess) {
        self.executor = executor
        self.process = process
    }

    func configuration(shielding application: String) async throws -> ShieldConfiguration {
        let settings = process.settings
        let requests = try await process.sharedDefaults.integer(forKey: process.requestsKey)
        let appName = process.platform.catalog.displayName(of: application)
        var subtitle = "You've used your \(settings.dailyLimitMinutes) minutes of \(appName) today."
        if requests > 0 { subtitle += " Asked for more: \(requests) of \(settings.maxRequests)." }
        return ShieldConfiguration(
            title: "Daily limit reached", subtitle: subtitle, primaryButtonLabel: "Close",
            secondaryButtonLabel: requests < settings.maxRequests ? "I need it" : nil)
    }

    func configuration(shielding application: String, in category: String) async throws -> ShieldConfiguration {
        try await configuration(shielding: application)
    }
}
