import SimulatediOS

/// Seed 000, task 3a `ProsocialConstants.swift`: XP values, retention, limits and Clarity's voice,
/// ported as written.
enum ProsocialXP {
    static let textSent = 15
    static let callCompleted = 25
    static let callAttempted = 10
    static let facetimeCompleted = 30
    static let longCall5min = 50
    static let autoVerifiedBonus = 5
}

enum DataRetention {
    static let sessionDays = 30
    static let challengeDays = 30
    static let connectionLogDays = 30
    static let snapshotDays = 90
}

enum ProsocialLimits {
    static let maxImportantContacts = 5
    static let maxTrustedNetworks = 3
    /// Connections needed for auto-pass.
    static let autoVerifyThreshold = 3
    /// Minimum call duration to count.
    static let callMinSeconds = 10
    /// Minimum time in Messages to count.
    static let textMinSeconds = 30
    /// Seconds to wait for a call.
    static let callWatchTimeout = 120
}

/// The "voice" of Clarity. Playful, warm, not preachy.
enum ProsocialResponses {
    static let verified = [
        "Nice! Connection made 💛",
        "That's what your phone is actually for ✨",
        "Real humans > reels",
        "See? That felt better than scrolling",
        "Your mom says hi back (probably) 💛",
        "5 minutes with a real person beats 5 hours of scrolling",
    ]

    static let failed = [
        "...nice try 😏",
        "That was suspiciously fast. Say more than 'hey'?",
        "We're watching 👀 Actually do it!",
        "Your phone literally told us you didn't",
        "C'mon, they'd love to hear from you. For real this time.",
    ]

    static let failedCall = [
        "That wasn't long enough to be a real call 📞",
        "Ring ring... hang up? That doesn't count 😄",
        "Try letting it ring more than once",
    ]

    static let callAttempted = [
        "They didn't pick up, but you tried! That counts ✅",
        "Voicemail counts — leave them something nice 🎙️",
    ]

    static let alreadyConnected = [
        "You've been a great communicator today. Go ahead 🎉",
        "3+ real conversations? You're a social butterfly 🦋",
        "You've earned your scroll. Enjoy it guilt-free.",
    ]

    static let skipped = [
        "Okay. But the scroll hits different when you haven't talked to anyone all day.",
        "Skipped for now. We'll ask again later 😏",
    ]

    /// Challenge prompts — {name} gets replaced with actual contact name.
    static let textPrompts = [
        "Send {name} a quick text",
        "Tell {name} you're thinking of them",
        "Check in on {name} — it's been a while",
        "Ask {name} how their day's going",
    ]

    static let callPrompts = [
        "Call {name} — even just for a minute",
        "Give {name} a ring instead of scrolling",
        "A quick call to {name} beats an hour of reels",
    ]

    /// `prompt(for:contactName:)`: a random template for the type, with the name filled in (by
    /// the standard library: Foundation's `replacingOccurrences` goes through `NSString`, 3 % of an
    /// exploration's time).
    static func prompt(for type: ChallengeType, contactName: String?, platform: Platform) -> String {
        let name = contactName ?? "someone you care about"
        let templates = type == .callSomeone ? callPrompts : textPrompts
        return (platform.randomElement(of: templates) ?? "Connect with {name}").replacing("{name}", with: name)
    }
}
