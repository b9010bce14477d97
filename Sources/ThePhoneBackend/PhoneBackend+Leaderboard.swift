/// The seed's `GET /groups/:id/leaderboard` and `getGroupLeaderboard` ("Leaderboard Endpoint").
extension PhoneBackend {
    /// Seed: "Cache for 5 minutes" (`'EX', 300`).
    public static let leaderboardCacheDuration: Int64 = 300_000

    /// The route: `username` must be a member (seed: 403 `Not a member of this group`).
    public mutating func groupLeaderboard(username: String, groupId: String, now: Int64) throws(PhoneBackendError) -> [LeaderboardEntry] {
        let user = try requireUser(username)
        guard let group = groups[groupId] else { throw .noSuchGroup }
        guard group.members.contains(where: { $0.userId == user.id }) else { throw .notMember }
        return try getGroupLeaderboard(groupId: groupId, now: now)
    }

    /// The seed's `getGroupLeaderboard`: the cached entries of this group and UTC week while they
    /// are younger than 5 minutes, else ``calculateLeaderboard(groupId:now:)``, cached.
    public mutating func getGroupLeaderboard(groupId: String, now: Int64) throws(PhoneBackendError) -> [LeaderboardEntry] {
        leaderboardCache = leaderboardCache.filter { $0.value.expiresAt > now }
        let cacheKey = "leaderboard:\(groupId):\(Week.utc(containing: now).startDate)"
        if let cached = leaderboardCache[cacheKey] {
            return cached.entries
        }
        let leaderboard = try calculateLeaderboard(groupId: groupId, now: now)
        leaderboardCache[cacheKey] = CachedLeaderboard(entries: leaderboard, expiresAt: now + Self.leaderboardCacheDuration)
        return leaderboard
    }

    /// The seed's leaderboard query, uncached: every member with their `weekly_scores` row whose
    /// `week_start` is the Monday of the current **UTC** week
    /// (seed: `getWeekStart(new Date(), 'UTC')`, kept as written: docs/apps/thephone-backend.md,
    /// "Seed gaps kept as written") matched against each user's local-Monday rows; no row counts
    /// 0. Ordered by `totalPoints` desc, `longestStreak` desc (seed), then username (a decision,
    /// docs/apps/thephone-backend.md, "Rules, with their source"); ranks from 1.
    public func calculateLeaderboard(groupId: String, now: Int64) throws(PhoneBackendError) -> [LeaderboardEntry] {
        guard let group = groups[groupId] else { throw .noSuchGroup }
        let weekStart = Week.utc(containing: now).startDate
        let rows = group.members.compactMap { member in
            users[member.userId].map { ($0, weeklyScores[member.userId]?[weekStart]) }
        }
        .sorted { a, b in
            let (pointsA, pointsB) = (a.1?.totalPoints ?? 0, b.1?.totalPoints ?? 0)
            if pointsA != pointsB { return pointsA > pointsB }
            let (longestA, longestB) = (a.1?.longestStreak ?? 0, b.1?.longestStreak ?? 0)
            if longestA != longestB { return longestA > longestB }
            return a.0.username < b.0.username
        }
        return rows.enumerated().map { LeaderboardEntry(rank: $0.offset + 1, user: $0.element.0, score: $0.element.1) }
    }
}
