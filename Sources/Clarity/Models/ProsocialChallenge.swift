import SimulatediOS

/// Seed 000, task 1a: the kinds of prosocial challenge.
enum ChallengeType: String, Codable, Sendable {
    case textSomeone
    case callSomeone
    case voiceMemo
    case facetime
    case replyToMessage

    /// Texts verify through Communication-category usage, calls through CXCallObserver.
    var isText: Bool { self == .textSomeone || self == .replyToMessage }
}

/// Seed 000, task 1a `ProsocialChallenge` (times are virtual `t` seconds).
struct ProsocialChallenge: Codable, Sendable, Equatable {
    var id: String
    var issuedAt: Double
    var type: ChallengeType
    var suggestedContactName: String?
    var suggestedContactIdentifier: String?
    var suggestedContactPhone: String?
    /// Which doomscroll app triggered this.
    var targetApp: String
    var wasVerified = false
    var verifiedAt: Double?
    /// `callObserver`, `communicationCategory`, `timerBased` or `autoVerified`.
    var verificationMethod: String?
    var userSkipped = false
    var frictionLayer: Int
    var xpEarned = 0
    /// The sassy response shown if verification failed.
    var failureMessage: String?
}
