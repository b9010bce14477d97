import SimulatediOS

/// A focus session: every app shielded but the whitelist, Focus mode on, until it ends.
struct FocusSession: Codable, Sendable, Equatable {
    var id: String
    var startTime: Double
    var plannedMinutes: Int
    var whitelist: [String]
    var endTime: Double?
    /// Ran its planned length (false when ended early).
    var completed = false
}
