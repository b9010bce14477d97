import Foundation

/// The seed's `services/score.service.ts` ("Score Calculation") over the stored events.
extension PhoneBackend {
    /// The seed's `calculateWeeklyScore` for the user with id `userId` and `week`.
    public func calculateWeeklyScore(userId: String, week: Week) -> Scoring.Totals {
        Scoring.calculateWeeklyScore(events: events[userId]?.rows ?? [], weekStart: week.start, weekEnd: week.end)
    }

    /// The seed's `updateWeeklyScore`: the week containing `now` in the user's time zone only, so
    /// events synced after their week ended never count (seed gap kept,
    /// docs/apps/thephone-backend.md, "Seed gaps kept as written").
    mutating func updateWeeklyScore(userId: String, now: Int64) {
        guard let user = users[userId] else { return }
        let week = Week(containing: now, in: TimeZone(identifier: user.timezone) ?? .gmt)
        let totals = calculateWeeklyScore(userId: userId, week: week)
        weeklyScores[userId, default: [:]][week.startDate] = WeeklyScore(
            userId: userId, weekStart: week.startDate, totalPoints: totals.totalPoints, streakCount: totals.streakCount,
            longestStreak: totals.longestStreak, calculatedAt: now)
    }

    /// The stored `weekly_scores` rows of `username`, by week.
    public func weeklyScores(of username: String) throws(PhoneBackendError) -> [WeeklyScore] {
        (weeklyScores[try requireUser(username).id] ?? [:]).values.sorted { $0.weekStart < $1.weekStart }
    }
}
