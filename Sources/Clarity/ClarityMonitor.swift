import SimulatediOS

/// Clarity's DeviceActivityMonitor extension (seed 000, task 2c, plus progressive friction).
///
/// - `friction_layer_<n>` of `clarity_friction`: writes `frictionLevel` = n; layer 1 posts the
///   awareness notification (task 4e), layers 2–5 shield the selection (which also re-shields
///   apps the user continued into at the previous layer): layers 2 and 4 through
///   `prosocialFriction` when prosocial challenges are on (`prosocialEnabled`), so a verified
///   text lifts them (task 2c); the others through `friction`. Without the paid tier
///   (`isSubscribed` false) layers 3–5 do nothing (task 9e: free has layers 1–2 only).
/// - The friction interval starting or ending (a new day): layer back to 0, both friction
///   stores cleared.
/// - `text_threshold_reached` of `prosocial_text_verification` (task 2c): sets
///   `prosocialChallengeVerified` and clears the `prosocialFriction` store. The seed does not
///   check which challenge the threshold was for: a late callback of a skipped challenge can
///   verify the next one (config/scenarios/clarity-stale-verification.json finds it). With
///   `verificationNamesChallenge` the event is `text_threshold_reached.<challengeId>` and the
///   monitor also writes `prosocialVerifiedChallengeId`, which the main app checks.
actor ClarityMonitor: WorldActor, DeviceActivityMonitor {
    nonisolated let executor: WorldActorExecutor
    private let platform: Platform
    private let thresholdsMinutes: [Int]
    private let verificationNamesChallenge: Bool

    init(executor: WorldActorExecutor, platform: Platform, thresholdsMinutes: [Int], verificationNamesChallenge: Bool) {
        self.executor = executor
        self.platform = platform
        self.thresholdsMinutes = thresholdsMinutes
        self.verificationNamesChallenge = verificationNamesChallenge
    }

    private var sharedDefaults: AppGroupDefaults { platform.userDefaults(suiteName: ClarityKeys.appGroup) }

    func eventDidReachThreshold(_ event: String, activity: String) async throws {
        if activity == ClarityKeys.textVerificationActivity,
            let challengeId = ClarityKeys.textThresholdChallenge(ofEvent: event, named: verificationNamesChallenge)
        {
            // User spent 30+ seconds in Communication apps — verified!
            if let challengeId {
                try await sharedDefaults.set(.string(challengeId), forKey: ClarityKeys.prosocialVerifiedChallengeId)
            }
            try await sharedDefaults.set(.bool(true), forKey: ClarityKeys.prosocialChallengeVerified)
            try await platform.managedSettingsStore(named: ClarityKeys.prosocialFrictionStore).clearAllSettings()
            return
        }
        guard activity == ClarityKeys.frictionActivity, let layer = ClarityKeys.frictionLayer(ofEvent: event),
            let level = FrictionLevel(rawValue: layer)
        else { return }
        if layer > 2, !(try await sharedDefaults.bool(forKey: ClarityKeys.isSubscribed)) { return }
        try await sharedDefaults.set(.int(layer), forKey: ClarityKeys.frictionLevel)
        let selection = FamilyActivitySelectionData.decode(
            try await sharedDefaults.data(forKey: ClarityKeys.shieldedAppsSelection))
        if level.shields {
            guard let selection else { return }
            let prosocialOn = try await sharedDefaults.bool(forKey: ClarityKeys.prosocialEnabled)
            let storeName = level.isProsocial && prosocialOn ? ClarityKeys.prosocialFrictionStore : ClarityKeys.frictionStore
            try await platform.managedSettingsStore(named: storeName).setShield(
                applications: Set(selection.applicationTokens),
                categories: selection.categoryTokens.isEmpty
                    ? .none : .specific(Set(selection.categoryTokens), except: []))
        } else {
            try await postAwarenessNudge(selection: selection)
        }
    }

    func intervalDidStart(for activity: String) async throws {
        guard activity == ClarityKeys.frictionActivity else { return }
        try await resetFriction()
    }

    func intervalDidEnd(for activity: String) async throws {
        guard activity == ClarityKeys.frictionActivity else { return }
        try await resetFriction()
    }

    private func resetFriction() async throws {
        try await sharedDefaults.set(.int(0), forKey: ClarityKeys.frictionLevel)
        try await platform.managedSettingsStore(named: ClarityKeys.frictionStore).clearAllSettings()
        try await platform.managedSettingsStore(named: ClarityKeys.prosocialFrictionStore).clearAllSettings()
    }

    /// Layer 1 (task 4e): "You've been on [app] for 5 minutes. [Name] would love to hear from you."
    /// The monitor cannot know the frontmost app: with one selected app it names it, otherwise
    /// "your shielded apps" (project choice, docs/apps/clarity.md).
    private func postAwarenessNudge(selection: FamilyActivitySelectionData?) async throws {
        let apps = selection?.applicationTokens ?? []
        let appName = apps.count == 1 ? platform.catalog.displayName(of: apps[0]) : "your shielded apps"
        let minutes = thresholdsMinutes.first ?? 5
        var body = "You've been on \(appName) for \(minutes == 1 ? "1 minute" : "\(minutes) minutes")."
        if let name = try await sharedDefaults.string(forKey: ClarityKeys.prosocialContactName) {
            body += " \(name) would love to hear from you."
        }
        try await platform.notificationCenter.add(title: FrictionLevel.awareness.title, body: body)
    }
}
