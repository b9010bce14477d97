import Foundation

/// The seed's temptation rules ("Temptation Notifications", `services/temptation.service.ts`)
/// as pure functions; the backend draws their random numbers.
public enum Temptations {
    /// Seed: "Don't tempt during first 5 minutes (let them settle)".
    public static let settleMinutes = 5.0

    /// The seed's notification types (`NOTIFICATION_TEMPLATES`' keys).
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case curiosity
        case social
        case fomo
        case taunt
        case fakeUrgency = "fake_urgency"

        /// The seed's `NOTIFICATION_TEMPLATES` of this kind.
        public var templates: [String] {
            switch self {
            case .curiosity:
                ["Something interesting might have happened...", "Wonder what's going on?", "Just checking in...", "Anything new?", "👀"]
            case .social:
                ["{count} friends just checked their phones...", "Your friends are online...", "Someone might be trying to reach you..."]
            case .fomo:
                [
                    "You've been offline for {duration}. Miss anything?", "The world keeps turning while you're away...",
                    "A lot can happen in {duration}...",
                ]
            case .taunt:
                [
                    "Still going? Impressive.", "Most people would have checked by now.", "Your willpower is being tested...",
                    "One little peek wouldn't hurt, right?",
                ]
            case .fakeUrgency:
                ["Quick question...", "Hey", "Did you see—", "FYI:", "Update:"]
            }
        }
    }

    /// The seed's `selectNotificationType`: under 30 min curiosity; under 60 curiosity or fake
    /// urgency (`Math.random() < 0.5`); under 120 fomo, social or fake urgency (a third each); else
    /// taunt (`Math.random() < 0.3`) or fomo. `mathRandom` is called only when the seed calls it.
    static func selectNotificationType(streakMinutes: Double, mathRandom: () -> Double) -> Kind {
        if streakMinutes < 30 {
            return .curiosity
        } else if streakMinutes < 60 {
            return mathRandom() < 0.5 ? .curiosity : .fakeUrgency
        } else if streakMinutes < 120 {
            return [Kind.fomo, .social, .fakeUrgency][Int(mathRandom() * 3)]
        } else {
            return mathRandom() < 0.3 ? .taunt : .fomo
        }
    }

    /// The seed's placeholders: `{duration}` is `Xh Ym` from an hour on, else `N minutes`
    /// (whole minutes, floored); `{count}` is `count`.
    static func fill(_ template: String, streakMinutes: Double, count: () -> Int) -> String {
        var content = template
        if content.contains("{duration}") {
            let hours = Int((streakMinutes / 60).rounded(.down))
            let minutes = Int(streakMinutes.truncatingRemainder(dividingBy: 60).rounded(.down))
            content = content.replacingOccurrences(of: "{duration}", with: hours > 0 ? "\(hours)h \(minutes)m" : "\(minutes) minutes")
        }
        if content.contains("{count}") {
            content = content.replacingOccurrences(of: "{count}", with: String(count()))
        }
        return content
    }

    /// The seed's `isWithinActiveHours` at `localMinutes` (minutes since local midnight): always
    /// without both quiet bounds; quiet hours that wrap midnight (`start > end`) leave
    /// `[end, start)` active, others leave everything outside `[start, end)`.
    static func isWithinActiveHours(localMinutes: Int, quietStart: Int?, quietEnd: Int?) -> Bool {
        guard let quietStart, let quietEnd else { return true }
        if quietStart > quietEnd {
            return localMinutes >= quietEnd && localMinutes < quietStart
        }
        return localMinutes < quietStart || localMinutes >= quietEnd
    }
}
