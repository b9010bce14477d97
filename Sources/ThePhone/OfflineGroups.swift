import Foundation

/// What the app keeps of the groups for when the device is offline (seed 001, "Offline
/// Capabilities": "Join group — Queued, syncs when online"; "Leaderboards — Stale, shows cached
/// data with timestamp"; docs/apps/thephone.md, "Offline"): the joins asked for offline, in
/// order, those the server refused once sent, and each group's leaderboard as last fetched.
struct OfflineGroups: Codable, Sendable, Equatable {
    /// A `group.join` asked for offline: by invite code or by a public group's id.
    enum Join: Codable, Sendable, Equatable {
        case code(String)
        case groupId(String)

        private enum CodingKeys: String, CodingKey { case code, groupId }

        init(from decoder: any Decoder) throws {
            let values = try decoder.container(keyedBy: CodingKeys.self)
            if let code = try values.decodeIfPresent(String.self, forKey: .code) {
                self = .code(code)
            } else {
                self = .groupId(try values.decode(String.self, forKey: .groupId))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var values = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .code(let code): try values.encode(code, forKey: .code)
            case .groupId(let groupId): try values.encode(groupId, forKey: .groupId)
            }
        }
    }

    /// A queued join the server refused once the device was back online (`groupFull`,
    /// `noSuchGroup`, `alreadyMember`…): shown in the dashboard, as the seed's UI would show it.
    struct RefusedJoin: Codable, Sendable, Equatable {
        let join: Join
        let reason: String
    }

    /// A group's leaderboard as the server last answered it, and when (ms since 1970).
    struct CachedLeaderboard: Codable, Sendable, Equatable {
        let entries: [LeaderboardEntry]
        let fetchedAt: Int64
    }

    /// Oldest first; sent in this order when the network returns, before the sync.
    var queuedJoins: [Join] = []
    var refusedJoins: [RefusedJoin] = []
    /// By group id.
    var leaderboards: [String: CachedLeaderboard] = [:]
}

/// `group.join`'s answer: the membership, or, offline, the join queued (`{"queued": {"code"}}` or
/// `{"queued": {"groupId"}}`).
enum JoinAnswer: Encodable, Sendable {
    case joined(GroupMembership)
    case queued(OfflineGroups.Join)

    private enum CodingKeys: String, CodingKey { case queued }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .joined(let membership):
            try membership.encode(to: encoder)
        case .queued(let join):
            var values = encoder.container(keyedBy: CodingKeys.self)
            try values.encode(join, forKey: .queued)
        }
    }
}

/// `group.leaderboard`'s answer: the server's entries, or, offline, the last ones fetched marked
/// stale with the time they were fetched (`{"stale": true, "fetchedAt", "entries"}`).
enum LeaderboardAnswer: Encodable, Sendable {
    case fresh([LeaderboardEntry])
    case stale(entries: [LeaderboardEntry], fetchedAt: String)

    private enum CodingKeys: String, CodingKey { case stale, fetchedAt, entries }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .fresh(let entries):
            try entries.encode(to: encoder)
        case .stale(let entries, let fetchedAt):
            var values = encoder.container(keyedBy: CodingKeys.self)
            try values.encode(true, forKey: .stale)
            try values.encode(fetchedAt, forKey: .fetchedAt)
            try values.encode(entries, forKey: .entries)
        }
    }
}
