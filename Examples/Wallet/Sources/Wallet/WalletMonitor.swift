import SimulatediOS

/// The DeviceActivityMonitor extension: each new day, the locked apps are shielded again (an
/// unlock bought at the shield lasts the rest of the day).
actor WalletMonitor: WorldActor, DeviceActivityMonitor {
    nonisolated let executor: WorldActorExecutor
    private let process: WalletProcess

    init(executor: WorldActorExecutor, process: WalletProcess) {
        self.executor = executor
        self.process = process
    }

    func intervalDidStart(for activity: String) async throws {
        guard activity == WalletKeys.activity else { return }
        try await process.shieldLockedApps()
    }
}
