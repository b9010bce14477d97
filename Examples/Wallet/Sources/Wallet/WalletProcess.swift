import SimulatediOS

/// What every Wallet process (the main app and each extension) is given: the platform, the
/// settings, and handles on what the processes share.
struct WalletProcess: Sendable {
    let platform: Platform
    let settings: WalletSettings

    /// `UserDefaults(suiteName: WalletKeys.appGroup)`.
    var sharedDefaults: AppGroupDefaults { platform.userDefaults(suiteName: WalletKeys.appGroup) }
    /// The ManagedSettings store the locked apps are shielded through.
    var store: ManagedSettingsStore { platform.managedSettingsStore(named: WalletKeys.store) }
    /// The server, as this process reaches it.
    var api: WalletAPI { WalletAPI(session: platform.urlSession) }

    /// Shields the locked apps (all of them: a new day, or the user's new choice).
    func shieldLockedApps() async throws {
        let apps = try await sharedDefaults.stringArray(forKey: WalletKeys.lockedApps) ?? []
        try await store.setShield(applications: Set(apps), categories: .none)
    }
}
