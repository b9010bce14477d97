import SimulatediOS

/// One day's trend data (kept 90 days): the day's stats as last recorded.
struct DailySnapshot: Codable, Sendable, Equatable {
    /// The local day, `2026-01-05`.
    var date: String
    /// Start of that day, virtual `t` seconds (for the 90-day retention).
    var dayStart: Double
    var connections: Int
    var conversationMinutes: Double
    var scrollingMinutes: Double
    var focusMinutes: Double
    var xpEarned: Int
}
