/// What `device.state.app` shows for ScrollKitty (docs/apps/scrollkitty.md#devicestateapp), and
/// what every intent answers. Decodable too, so tests read the dashboard back as it is.
struct ScrollKittyState: Codable, Sendable, Equatable {
    struct App: Codable, Sendable, Equatable {
        let app: String
        /// The catalog's display name (`Instagram`).
        let name: String
        let tokenId: String
        let hp: Int
        let maxHP: Int
        /// Whether either of ScrollKitty's stores shields it now.
        let shielded: Bool
        /// ISO-8601 UTC, or null when the app is not in cooldown.
        let cooldownEndsAt: String?

        private enum CodingKeys: String, CodingKey { case app, name, tokenId, hp, maxHP, shielded, cooldownEndsAt }

        /// Every field present, `cooldownEndsAt` null when unset.
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(app, forKey: .app)
            try c.encode(name, forKey: .name)
            try c.encode(tokenId, forKey: .tokenId)
            try c.encode(hp, forKey: .hp)
            try c.encode(maxHP, forKey: .maxHP)
            try c.encode(shielded, forKey: .shielded)
            try c.encode(cooldownEndsAt, forKey: .cooldownEndsAt)
        }
    }

    let apps: [App]
    let totalHP: Int
    let isDead: Bool
    let shieldFrequencyMinutes: Int
    let focusWindow: FocusWindow
    let inFocusWindow: Bool
    let dailyLimitHours: Int?
    /// Whether the user allowed notifications when the main app asked at launch: false with
    /// `notificationPermission` `deny` or in the `noNotificationAuth` variant (docs/platform.md,
    /// "Notifications").
    let notificationsAuthorized: Bool

    private enum CodingKeys: String, CodingKey {
        case apps, totalHP, isDead, shieldFrequencyMinutes, focusWindow, inFocusWindow, dailyLimitHours,
            notificationsAuthorized
    }

    /// Every field present, `dailyLimitHours` null until set.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(apps, forKey: .apps)
        try c.encode(totalHP, forKey: .totalHP)
        try c.encode(isDead, forKey: .isDead)
        try c.encode(shieldFrequencyMinutes, forKey: .shieldFrequencyMinutes)
        try c.encode(focusWindow, forKey: .focusWindow)
        try c.encode(inFocusWindow, forKey: .inFocusWindow)
        try c.encode(dailyLimitHours, forKey: .dailyLimitHours)
        try c.encode(notificationsAuthorized, forKey: .notificationsAuthorized)
    }
}
