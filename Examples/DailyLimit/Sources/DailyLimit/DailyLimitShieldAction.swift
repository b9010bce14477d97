import SimulatediOS

/// The ShieldAction extension. Close closes the app. "I need it" counts the request in the App
/// Group and redraws the shield (`.defer`), which then shows the count; once the count reaches
/// `maxRequests` the button is gone, and a press that still arrives closes the app.
actor DailyLimitShieldAction: WorldActor, ShieldActionDelegate {
    nonisolated let executor: WorldActorExecutor
    private let process: DailyLimitProcess

    init(executor: WorldActorExecutor, process: DailyLimitProcess) {
        self.executor = executor
        self.process = process
    }

    func handle(action: ShieldButton, for application: String) async throws -> ShieldActionResponse {
        guard action == .secondary else { return .close }
        let defaults = process.sharedDefaults
        let key = process.requestsKey
        let requests = try await defaults.integer(forKey: key)
        guard requests < process.settings.maxRequests else { return .close }
        try await defaults.set(.int(requests + 1), forKey: key)
        return .defer
    }
}
