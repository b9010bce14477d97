/// What the seed's `exportUserData` returns ("GDPR Compliance"): the rows of its five queries,
/// under the seed's column names.
public struct UserDataExport: Codable, Sendable, Equatable {
    /// `SELECT id, username, email, timezone, platform, created_at FROM users`.
    public struct Account: Codable, Sendable, Equatable {
        public let id: String
        public let username: String
        public let email: String
        public let timezone: String
        public let platform: String
        /// ISO 8601, as `JSON.stringify` writes a `TIMESTAMPTZ`.
        public let createdAt: String

        enum CodingKeys: String, CodingKey {
            case id, username, email, timezone, platform
            case createdAt = "created_at"
        }
    }

    /// `SELECT event_type, timestamp, source FROM events … ORDER BY timestamp`.
    public struct Event: Codable, Sendable, Equatable {
        public let eventType: PhoneEvent.EventType
        /// ISO 8601.
        public let timestamp: String
        public let source: String

        enum CodingKeys: String, CodingKey {
            case eventType = "event_type"
            case timestamp, source
        }
    }

    /// `SELECT week_start, total_points, streak_count, longest_streak FROM weekly_scores`.
    public struct Score: Codable, Sendable, Equatable {
        /// `YYYY-MM-DD`.
        public let weekStart: String
        public let totalPoints: Double
        public let streakCount: Int
        public let longestStreak: Int

        enum CodingKeys: String, CodingKey {
            case weekStart = "week_start"
            case totalPoints = "total_points"
            case streakCount = "streak_count"
            case longestStreak = "longest_streak"
        }
    }

    /// `SELECT g.name, gm.role, gm.joined_at FROM group_members gm JOIN groups g`.
    public struct Group: Codable, Sendable, Equatable {
        public let name: String
        public let role: String
        /// ISO 8601.
        public let joinedAt: String

        enum CodingKeys: String, CodingKey {
            case name, role
            case joinedAt = "joined_at"
        }
    }

    /// `SELECT (SELECT username …) as following, f.created_at FROM follows f`.
    public struct Following: Codable, Sendable, Equatable {
        public let following: String
        /// ISO 8601.
        public let createdAt: String

        enum CodingKeys: String, CodingKey {
            case following
            case createdAt = "created_at"
        }
    }

    /// ISO 8601 of the backend's `now` (seed: `new Date().toISOString()`).
    public let exportedAt: String
    public let account: Account
    public let events: [Event]
    public let weeklyScores: [Score]
    public let groups: [Group]
    /// Always empty: the simulation has no follow requests (docs/apps/thephone-backend.md, "Not
    /// ported yet").
    public let following: [Following]
}

/// What the seed's `DELETE /users/me` answers: `{ success: true }`.
public struct DeleteResponse: Codable, Sendable, Equatable {
    public let success: Bool
}
