import SimulatediOS

/// Seed 000, task 1b `ConnectionLog`: one real connection (times are virtual `t` seconds).
struct ConnectionLog: Codable, Sendable, Equatable {
    enum Kind: String, Codable, Sendable {
        case callCompleted, callAttempted, textSent, facetimeCompleted, voiceMemoSent
    }

    var id: String
    var timestamp: Double
    var type: Kind
    var contactName: String?
    var contactIdentifier: String?
    var durationSeconds = 0
    /// Link to the triggering ProsocialChallenge.
    var challengeId: String?
    var xpEarned = 0
}
