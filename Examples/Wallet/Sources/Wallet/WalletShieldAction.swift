import SimulatediOS

/// The ShieldAction extension. Close closes the app. "Spend" asks the server to take the unlock's
/// price (`POST /spend`): when it does, the app is unshielded for the rest of the day and the
/// spend counted; when the balance is short (409) or the phone is offline, the app closes.
actor WalletShieldAction: WorldActor, ShieldActionDelegate {
    nonisolated let executor: WorldActorExecutor
    private let process: WalletProcess

    init(executor: WorldActorExecutor, process: WalletProcess) {
        self.executor = executor
        self.process = process
    }

    func handle(action: ShieldButton, for application: String) async throws -> ShieldActionResponse {
        guard action == .secondary else { return .close }
        let cost = process.settings.unlockCost
        guard case .balance(let balance) = try? await process.api.spend(cost) else { return .close }
        let defaults = process.sharedDefaults
        try await defaults.set(.int(try await defaults.integer(forKey: WalletKeys.spentMinutes) + cost), forKey: WalletKeys.spentMinutes)
        try await defaults.set(.int(balance), forKey: WalletKeys.balance)
        let shielded = try await process.store.shield().applications
        try await process.store.setShield(applications: shielded.subtracting([application]), categories: .none)
        return .none
    }
}
