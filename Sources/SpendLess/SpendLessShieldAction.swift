import SimulatediOS

/// The ShieldActionExtension (seed 002: "Shield triggers intervention: Extension sets
/// `interventionTriggered` flag, main app checks on `scenePhase` active").
///
/// The primary button writes `interventionTriggeredApp` (the pressed app), then
/// `interventionTriggered = true`, and closes the app: iOS cannot open the main app from a shield,
/// so the user opens SpendLess and it picks the flag up. The app is written before the flag, so a
/// flag seen true always has its app written (the main app's side: ``SpendLessMainApp``). Two
/// presses write the same keys; the last one's app is the one kept (docs/apps/spendless.md, "The
/// flag").
actor SpendLessShieldAction: WorldActor, ShieldActionDelegate {
    nonisolated let executor: WorldActorExecutor
    private let process: SpendLessProcess

    init(executor: WorldActorExecutor, process: SpendLessProcess) {
        self.executor = executor
        self.process = process
    }

    func handle(action: ShieldButton, for application: String) async throws -> ShieldActionResponse {
        guard action == .primary else { return .close }
        try await process.sharedDefaults.set(.string(application), forKey: SpendLessKeys.interventionTriggeredApp)
        try await process.sharedDefaults.set(.bool(true), forKey: SpendLessKeys.interventionTriggered)
        return .close
    }
}
