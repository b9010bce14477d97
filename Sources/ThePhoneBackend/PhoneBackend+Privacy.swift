/// The seed's GDPR services ("GDPR Compliance", `services/privacy.service.ts`).
extension PhoneBackend {
    /// The seed's `exportUserData` at `now`: the account row, the events by timestamp, the
    /// weekly scores (by week, a decision: the seed's query has no order), the group memberships
    /// (in group creation order) and the follows (none in the simulation).
    public func exportUserData(username: String, now: Int64) throws(PhoneBackendError) -> UserDataExport {
        let user = try requireUser(username)
        let account = UserDataExport.Account(
            id: user.id, username: user.username, email: user.email, timezone: user.timezone, platform: user.platform,
            createdAt: Timestamps.iso(user.createdAt))
        let events = try events(of: username).map {
            UserDataExport.Event(eventType: $0.eventType, timestamp: Timestamps.iso($0.timestamp), source: $0.source)
        }
        let scores = try weeklyScores(of: username).map {
            UserDataExport.Score(
                weekStart: $0.weekStart, totalPoints: $0.totalPoints, streakCount: $0.streakCount, longestStreak: $0.longestStreak)
        }
        let memberships = allGroups.compactMap { group in
            group.members.first { $0.userId == user.id }.map {
                UserDataExport.Group(name: group.name, role: $0.role, joinedAt: Timestamps.iso($0.joinedAt))
            }
        }
        return UserDataExport(
            exportedAt: Timestamps.iso(now), account: account, events: events, weeklyScores: scores, groups: memberships,
            following: [])
    }

    /// The seed's `deleteUserData` in its transaction: memberships, events, weekly scores,
    /// temptation settings and the user go; the devices signed in to it are signed out with it.
    ///
    /// Kept as the seed has them:
    /// - `groups.creator_id REFERENCES users(id)` has no `ON DELETE`, so the user who created a
    ///   group cannot be deleted: the final `DELETE FROM users` fails, the transaction rolls back
    ///   and nothing is deleted (``PhoneBackendError/groupCreator``);
    /// - the cache clean-up deletes the keys `*:<user id>:*`, which no leaderboard key matches
    ///   (`leaderboard:<group id>:<week>`): a cached leaderboard keeps showing the user until it
    ///   expires; nor does `next_temptation:<user id>` (no colon after the id), which expires
    ///   unused.
    public mutating func deleteUserData(username: String) throws(PhoneBackendError) -> DeleteResponse {
        let user = try requireUser(username)
        guard !groups.values.contains(where: { $0.creatorId == user.id }) else { throw .groupCreator }
        for id in groups.keys {
            groups[id]?.members.removeAll { $0.userId == user.id }
        }
        events[user.id] = nil
        weeklyScores[user.id] = nil
        temptationSettings[user.id] = nil
        users[user.id] = nil
        return DeleteResponse(success: true)
    }
}
