/// One row of a group's leaderboard: the seed's `interface LeaderboardEntry` ("Leaderboard
/// Endpoint") with the aliases docs/apps/thephone-backend.md, "Decisions where the seed is silent",
/// adds (`device` = `username`, `status` = `trackingStatus`) and `flagged` (seed: "users with
/// `broken` or `pending` status show a warning indicator").
public struct LeaderboardEntry: Codable, Sendable, Equatable {
    public let rank: Int
    public let username: String
    public let device: String
    public let totalPoints: Double
    public let streakCount: Int
    public let longestStreak: Int
    public let trackingStatus: PhoneUser.TrackingStatus
    public let status: PhoneUser.TrackingStatus
    public let flagged: Bool

    init(rank: Int, user: PhoneUser, score: WeeklyScore?) {
        self.rank = rank
        username = user.username
        device = user.username
        totalPoints = score?.totalPoints ?? 0
        streakCount = score?.streakCount ?? 0
        longestStreak = score?.longestStreak ?? 0
        trackingStatus = user.trackingStatus
        status = user.trackingStatus
        flagged = user.trackingStatus != .verified
    }
}
