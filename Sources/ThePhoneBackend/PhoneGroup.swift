/// A row of the seed's `groups` table with its `group_members` rows ("Database Schema").
public struct PhoneGroup: Codable, Sendable, Equatable {
    /// A `group_members` row.
    public struct Member: Codable, Sendable, Equatable {
        public let userId: String
        /// `admin` for the creator (a decision, docs/apps/thephone-backend.md, "Decisions where the
        /// seed is silent"), otherwise `member`
        /// (seed: `role VARCHAR(20) NOT NULL DEFAULT 'member'`).
        public let role: String
        /// Milliseconds since 1970.
        public let joinedAt: Int64
    }

    /// Seed: `max_members INTEGER NOT NULL DEFAULT 50`.
    public static let defaultMaxMembers = 50

    public let id: String
    public let name: String
    public let description: String?
    public let creatorId: String
    public let isPrivate: Bool
    /// The join code (seed: `invite_code VARCHAR(20) UNIQUE`).
    public let inviteCode: String
    public let maxMembers: Int
    public let createdAt: Int64
    /// In joining order.
    public internal(set) var members: [Member]
}
