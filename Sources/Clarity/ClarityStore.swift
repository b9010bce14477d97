import SimulatediOS

/// The main app's SwiftData store, as one Codable value persisted with the device: every model
/// of seed 000 task 1 plus the user's profile. Mutated only by ``ClarityMainApp``.
struct ClarityStore: Codable, Sendable {
    /// What the seed keeps on `UserProfile`, `ProsocialChallengeEngine` and the friction manager.
    struct Profile: Codable, Sendable {
        /// When the app was first launched (the 7-day trial starts then), virtual `t`.
        var installedAt: Double
        /// Task 11a `prosocialEnabled` (default true; toggled in Settings).
        var prosocialEnabled = true
        var totalXP = 0
        /// `ProsocialChallengeEngine.currentChallenge`, by id.
        var currentChallengeId: String?
        var verificationStatus: VerificationState = .idle
        var lastVerificationMessage: String?
        /// The current challenge's prompt (`ProsocialResponses.prompt`, chosen when it was issued).
        var challengePrompt: String?
        /// The contact the next challenge will suggest (its name is on the shield meanwhile).
        var nextContactIdentifier: String?
        var manualContactCount = 0
        /// `SubscriptionService.subscriptionStatus`: `monthly`, `yearly` or `none`.
        var subscriptionStatus = "none"
    }

    var profile: Profile
    var challenges: [ProsocialChallenge] = []
    var connectionLogs: [ConnectionLog] = []
    var importantContacts: [ImportantContact] = []
    var wifiGate = WiFiGateConfig()
    var focusSessions: [FocusSession] = []
    var moodEntries: [MoodEntry] = []
    var snapshots: [DailySnapshot] = []

    var currentChallenge: ProsocialChallenge? {
        get { profile.currentChallengeId.flatMap { id in challenges.first { $0.id == id } } }
        set {
            guard let newValue else {
                profile.currentChallengeId = nil
                return
            }
            profile.currentChallengeId = newValue.id
            if let index = challenges.firstIndex(where: { $0.id == newValue.id }) {
                challenges[index] = newValue
            } else {
                challenges.append(newValue)
            }
        }
    }

    var activeFocusSession: FocusSession? {
        focusSessions.last { $0.endTime == nil }
    }
}

/// Seed 000, task 2e `ProsocialChallengeEngine.VerificationState`.
enum VerificationState: String, Codable, Sendable {
    case idle
    /// User tapped deep link, we're watching.
    case waitingForAction
    /// Confirmed ✅
    case verified
    /// "...no you didn't"
    case failed
    /// Rang but no answer — counts.
    case callAttempted
    /// 3+ connections today, free pass.
    case autoVerified
}
