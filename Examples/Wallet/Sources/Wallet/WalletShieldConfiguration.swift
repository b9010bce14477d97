import SimulatediOS

/// The ShieldConfiguration extension: the price of an unlock, and the balance as the phone last
/// heard it from the server.
actor WalletShieldConfiguration: WorldActor, ShieldConfigurationDataSource {
    nonisolated let executor: WorldActorExecutor
    private let process: WalletProcess

    init(executor: WorldActorExecutor, process: WalletProcess) {
        self.executor = executor
        self.process = process
    }

    func configuration(shielding application: String) async throws -> ShieldConfiguration {
        let cost = process.settings.unlockCost
        let balance = try await process.sharedDefaults.integer(forKey: WalletKeys.balance)
        let appName = process.platform.catalog.displayName(of: application)
        return ShieldConfiguration(
            title: "\(appName) costs \(cost) minutes", subtitle: "Your wallet: \(balance) minutes.",
            primaryButtonLabel: "Close", secondaryButtonLabel: "Spend \(cost) minutes")
    }

    func configuration(shielding application: String, in category: String) async throws -> ShieldConfiguration {
        try await configuration(shielding: application)
    }
}
