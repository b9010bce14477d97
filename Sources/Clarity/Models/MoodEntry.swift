import SimulatediOS

/// A mood check-in (free tier feature; kept 30 days).
struct MoodEntry: Codable, Sendable, Equatable {
    var id: String
    var timestamp: Double
    /// 1 (low) … 5 (great).
    var mood: Int
}
