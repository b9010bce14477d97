import SimulatediOS

/// Clarity's ShieldAction extension.
///
/// - Secondary, "I Choose to Continue": the user may always continue past friction (seed 000,
///   Key Rules). The app is taken out of the `friction` and `prosocialFriction` shields, so it
///   stays open until the monitor shields the selection again at the next layer. On a WiFi-gate
///   shield it overrides the gate (until the network changes) once the gate has shielded for
///   30 s, unless strict mode (task 1d: "false = show override after 30s"). A focus session's
///   shield stays. Returns `.none` when nothing shields the app any more, else `.defer` (the
///   shield is redrawn by what still shields it).
/// - Primary, "Open Clarity": an extension cannot open its app, so the shield closes the app
///   (`.close`) and the user goes to Clarity (project choice, docs/apps/clarity.md).
actor ClarityShieldAction: WorldActor, ShieldActionDelegate {
    nonisolated let executor: WorldActorExecutor
    private let platform: Platform

    /// Seconds the WiFi gate must have shielded before it can be overridden (task 1d).
    static let overrideDelay = 30.0

    init(executor: WorldActorExecutor, platform: Platform) {
        self.executor = executor
        self.platform = platform
    }

    func handle(action: ShieldButton, for application: String) async throws -> ShieldActionResponse {
        switch action {
        case .primary:
            return .close
        case .secondary:
            try await lift(application, from: ClarityKeys.frictionStore)
            try await lift(application, from: ClarityKeys.prosocialFrictionStore)
            try await overrideWiFiGate(for: application)
            let focus = try await platform.managedSettingsStore(named: ClarityKeys.focusStore).shield()
            let gate = try await platform.managedSettingsStore(named: ClarityKeys.wifiGateStore).shield()
            return focus.isEmpty && gate.isEmpty ? .none : .defer
        }
    }

    /// Takes `application` out of one store's shield (its token, or an exception to its categories).
    private func lift(_ application: String, from storeName: String) async throws {
        let store = platform.managedSettingsStore(named: storeName)
        var shield = try await store.shield()
        guard !shield.isEmpty else { return }
        shield.applications.remove(application)
        switch shield.applicationCategories {
        case .none: break
        case .all(var except):
            except.insert(application)
            shield.applicationCategories = .all(except: except)
        case .specific(let categories, var except):
            except.insert(application)
            shield.applicationCategories = .specific(categories, except: except)
        }
        try await store.setShield(applications: shield.applications, categories: shield.applicationCategories)
    }

    private func overrideWiFiGate(for application: String) async throws {
        let gate = platform.managedSettingsStore(named: ClarityKeys.wifiGateStore)
        guard try await !gate.shield().isEmpty else { return }
        let sharedDefaults = platform.userDefaults(suiteName: ClarityKeys.appGroup)
        guard !(try await sharedDefaults.bool(forKey: ClarityKeys.wifiGateStrictMode)) else { return }
        let appliedAt = try await sharedDefaults.object(forKey: ClarityKeys.wifiGateAppliedAt).flatMap(\.doubleValue) ?? 0
        guard platform.now.seconds - appliedAt >= Self.overrideDelay else { return }
        try await sharedDefaults.set(.bool(true), forKey: ClarityKeys.wifiGateOverride)
        try await gate.clearAllSettings()
    }
}
