/// A leaderboard the seed keeps in Redis (`redis.set(cacheKey, …, 'EX', 300)`).
struct CachedLeaderboard: Codable, Sendable, Equatable {
    let entries: [LeaderboardEntry]
    /// When Redis drops the key, milliseconds since 1970: it is served while `now` is before.
    let expiresAt: Int64
}
