import SimulatediOS

/// Clarity's names, as seed 000 gives them (docs/apps/clarity.md). Project choices are marked.
enum ClarityKeys {
    static let bundleIdentifier = "com.clarity.focus"
    static let appGroup = "group.com.clarity.focus"

    // App Group keys (seed 000).
    static let pendingProsocialChallengeId = "pendingProsocialChallengeId"
    static let prosocialChallengeVerified = "prosocialChallengeVerified"
    static let homeNetworkSSIDs = "homeNetworkSSIDs"
    static let wifiGateEnabled = "wifiGateEnabled"
    static let shieldedAppsSelection = "shieldedAppsSelection"
    static let prosocialContactName = "prosocialContactName"
    /// Project choice: the friction layer reached today (0–5), written by the monitor extension
    /// and read by the shield extensions and the main app.
    static let frictionLevel = "frictionLevel"
    /// Project choice: prosocial challenges are on, entitled and have contacts (the monitor then
    /// shields layers 2 and 4 through `prosocialFriction`).
    static let prosocialEnabled = "prosocialEnabled"
    /// Project choice: the user has the paid tier (trial or subscription); without it the
    /// monitor stops at layer 2 (seed task 9e: free tier has friction layers 1-2 only).
    static let isSubscribed = "isSubscribed"
    /// Project choice: `WiFiGateConfig.strictMode`, mirrored for the shield extensions.
    static let wifiGateStrictMode = "wifiGateStrictMode"
    /// Project choice: the user overrode the WiFi gate (until the network changes).
    static let wifiGateOverride = "wifiGateOverride"
    /// Project choice: when the WiFi gate last started shielding (virtual `t`), for the 30 s override.
    static let wifiGateAppliedAt = "wifiGateAppliedAt"

    // ManagedSettings stores.
    static let prosocialFrictionStore = "prosocialFriction"
    static let wifiGateStore = "wifiGate"
    /// Project choice: progressive friction's store.
    static let frictionStore = "friction"
    /// Project choice: focus sessions' store.
    static let focusStore = "focus"

    // DeviceActivity names.
    /// Project choice: the daily activity whose events are the friction layers.
    static let frictionActivity = "clarity_friction"
    static let textVerificationActivity = "prosocial_text_verification"
    static let textThresholdEvent = "text_threshold_reached"
    /// With `verificationNamesChallenge`: the challenge the monitor verified (not in the seed).
    static let prosocialVerifiedChallengeId = "prosocialVerifiedChallengeId"

    /// The text-verification event's name: the seed's, or with `verificationNamesChallenge`
    /// the seed's followed by `.<challengeId>`.
    static func textThresholdEvent(for challengeId: String, named: Bool) -> String {
        named ? "\(textThresholdEvent).\(challengeId)" : textThresholdEvent
    }

    /// Whether `event` is the text-verification threshold: `.some(nil)` for the seed's name,
    /// `.some(id)` for a named one (only when `named`), nil for any other event.
    static func textThresholdChallenge(ofEvent event: String, named: Bool) -> String?? {
        if !named { return event == textThresholdEvent ? .some(nil) : nil }
        let prefix = "\(textThresholdEvent)."
        guard event.hasPrefix(prefix), event.count > prefix.count else { return nil }
        return .some(String(event.dropFirst(prefix.count)))
    }

    /// Project choice: the event of friction layer `n` is `friction_layer_<n>`.
    static func frictionEvent(layer: Int) -> String { "friction_layer_\(layer)" }

    static func frictionLayer(ofEvent event: String) -> Int? {
        guard event.hasPrefix("friction_layer_") else { return nil }
        return Int(event.dropFirst("friction_layer_".count))
    }
}
