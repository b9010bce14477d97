/// The seed's `actor TrackingHealthMonitor` ("Detects when tracking has likely broken (user deleted
/// Shortcut, etc.)"): `checkHealth()` and `onAppForeground()`, both run when the app becomes active
/// (docs/apps/thephone.md, "Setup and tracking health"), as pure functions of the facts they read
/// (the seed's actor keeps no state of its own).
///
/// Order (the same section): never verified ⇒ `neverVerified`; `Int(hours since the last unlock) >
/// 24` ⇒ `noRecentUnlocks(hours)` (the seed truncates: unhealthy from 25 h; no unlock ever ⇒ 999);
/// else more than 30 minutes since the last unlock ⇒ `appOpenWithoutRecentUnlock`
/// (`onAppForeground`); else healthy.
struct TrackingHealthMonitor: Sendable {
    /// Seed: `struct HealthStatus { isHealthy, issue, lastCheck }`.
    struct HealthStatus: Codable, Sendable, Equatable {
        let isHealthy: Bool
        let issue: HealthIssue?
        /// ms since 1970.
        let lastCheck: Int64
    }

    /// Seed: `enum HealthIssue`, its three cases.
    enum HealthIssue: Codable, Sendable, Equatable {
        case noRecentUnlocks(hoursSinceLastUnlock: Int)
        case appOpenWithoutRecentUnlock
        case neverVerified

        /// The case's name, as `device.state.app.trackingHealth.issue` shows it.
        var name: String {
            switch self {
            case .noRecentUnlocks: "noRecentUnlocks"
            case .appOpenWithoutRecentUnlock: "appOpenWithoutRecentUnlock"
            case .neverVerified: "neverVerified"
            }
        }

        var hoursSinceLastUnlock: Int? {
            if case .noRecentUnlocks(let hours) = self { return hours }
            return nil
        }

        private enum CodingKeys: String, CodingKey { case name, hoursSinceLastUnlock }

        init(from decoder: any Decoder) throws {
            let values = try decoder.container(keyedBy: CodingKeys.self)
            switch try values.decode(String.self, forKey: .name) {
            case "noRecentUnlocks":
                self = .noRecentUnlocks(hoursSinceLastUnlock: try values.decode(Int.self, forKey: .hoursSinceLastUnlock))
            case "appOpenWithoutRecentUnlock": self = .appOpenWithoutRecentUnlock
            default: self = .neverVerified
            }
        }

        func encode(to encoder: any Encoder) throws {
            var values = encoder.container(keyedBy: CodingKeys.self)
            try values.encode(name, forKey: .name)
            try values.encodeIfPresent(hoursSinceLastUnlock, forKey: .hoursSinceLastUnlock)
        }
    }

    /// Seed: `hoursSince > 24` — "No unlocks in 24+ hours is suspicious".
    static let maximumHoursWithoutUnlock = 24
    /// Seed: `hoursSinceLastUnlock: 999` — "No unlocks ever recorded after verification".
    static let hoursWhenNoUnlockEver = 999
    /// Seed: `minutesSince > 30` in `onAppForeground()`.
    static let maximumMinutesBeforeOpen = 30.0

    /// Seed: `checkHealth()`. `verificationDate` is the saved verification (`getVerificationDate()`),
    /// `lastUnlock` `EventStore.getLastUnlockTimestamp()`, all in ms since 1970.
    func checkHealth(now: Int64, verificationDate: Int64?, lastUnlock: Int64?) -> HealthStatus {
        // Check 1: Was setup ever completed?
        guard verificationDate != nil else {
            return HealthStatus(isHealthy: false, issue: .neverVerified, lastCheck: now)
        }
        // Check 2: When was the last unlock?
        if let lastUnlock {
            let hoursSince = Int(Double(now - lastUnlock) / 1000 / 3600)
            if hoursSince > Self.maximumHoursWithoutUnlock {
                return HealthStatus(isHealthy: false, issue: .noRecentUnlocks(hoursSinceLastUnlock: hoursSince), lastCheck: now)
            }
        } else {
            return HealthStatus(
                isHealthy: false, issue: .noRecentUnlocks(hoursSinceLastUnlock: Self.hoursWhenNoUnlockEver), lastCheck: now)
        }
        return HealthStatus(isHealthy: true, issue: nil, lastCheck: now)
    }

    /// Seed: `onAppForeground()` — "If user is opening the app, but we haven't seen an unlock in
    /// the last 30 minutes, something might be wrong".
    func onAppForeground(now: Int64, lastUnlock: Int64?) -> HealthIssue? {
        if let lastUnlock {
            let minutesSince = Double(now - lastUnlock) / 1000 / 60
            if minutesSince > Self.maximumMinutesBeforeOpen {
                return .appOpenWithoutRecentUnlock
            }
        }
        return nil
    }

    /// Both checks, as the app runs them when it becomes active ("Called every time app comes to
    /// foreground"): `checkHealth()`'s issue first, else `onAppForeground()`'s.
    func checkOnBecomingActive(now: Int64, verificationDate: Int64?, lastUnlock: Int64?) -> HealthStatus {
        let status = checkHealth(now: now, verificationDate: verificationDate, lastUnlock: lastUnlock)
        guard status.isHealthy, let issue = onAppForeground(now: now, lastUnlock: lastUnlock) else { return status }
        return HealthStatus(isHealthy: false, issue: issue, lastCheck: now)
    }
}
