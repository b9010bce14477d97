/// A row of the seed's materialized `weekly_scores` table ("Database Schema"), one per user and
/// week (`UNIQUE (user_id, week_start)`).
public struct WeeklyScore: Codable, Sendable, Equatable {
    public let userId: String
    /// The local Monday the week starts on, `YYYY-MM-DD` (seed: `week_start DATE NOT NULL`).
    public let weekStart: String
    /// Rounded to cents (seed: `total_points DECIMAL(12, 2)`).
    public let totalPoints: Double
    public let streakCount: Int
    /// Seconds (seed: `longest_streak INTEGER NOT NULL DEFAULT 0, -- seconds`).
    public let longestStreak: Int
    /// Milliseconds since 1970 (seed: `calculated_at`).
    public let calculatedAt: Int64
}
