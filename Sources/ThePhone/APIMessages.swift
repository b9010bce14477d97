/// The bodies the seed's API takes and answers ("API Endpoints Summary", "Event Sync Endpoint"),
/// as the clients encode and decode them. Field names are the wire's.

/// `POST /events/sync`'s body: the seed's `syncRequestSchema` (`events`, `lastSync`, `clientTime`).
struct SyncEventsRequest: Codable, Sendable, Equatable {
    /// The seed's `toSyncPayload()`: `{id, eventType, timestamp, source}`.
    struct Event: Codable, Sendable, Equatable {
        let id: String
        let eventType: EventType
        /// Milliseconds since 1970.
        let timestamp: Int64
        let source: String
    }

    let events: [Event]
    /// The previous answer's `serverTime`, 0 before the first sync.
    let lastSync: Int64
    /// The device's clock (the seed's schema requires it; its server reads it nowhere).
    let clientTime: Int64
}

/// `POST /events/sync`'s answer: the seed's `interface SyncResponse`.
struct SyncEventsResponse: Codable, Sendable, Equatable {
    struct Confirmed: Codable, Sendable, Equatable {
        let clientId: String
        let serverId: String
    }

    /// An event of the user that another device recorded, under the server's id.
    struct NewEvent: Codable, Sendable, Equatable {
        let id: String
        let eventType: EventType
        let timestamp: Int64
        let source: String
    }

    let confirmed: [Confirmed]
    let newEvents: [NewEvent]
    /// The server's `Date.now()`: the next sync's `lastSync`.
    let serverTime: Int64
}

/// `POST /auth/register` / `POST /auth/login`: `{"user": {…}}`.
struct AccountResponse: Codable, Sendable, Equatable {
    struct User: Codable, Sendable, Equatable {
        let id: String
        let username: String
        let timezone: String
        let platform: String
        let trackingStatus: String
    }

    let user: User
}

/// A group as its member sees it (`GET /groups`, `POST /invites/redeem`, `POST /groups/:id/join`;
/// `groups` in docs/apps/thephone.md#devicestateapp).
struct GroupMembership: Codable, Sendable, Equatable {
    let groupId: String
    let name: String
    let code: String
    /// `admin` for the creator (a choice, docs/apps/thephone-backend.md, "Decisions where the seed
    /// is silent"), else `member` (seed's default).
    let role: String
}

/// `POST /groups`'s answer: `{"groupId","code"}` (docs/apps/thephone.md, "Intents").
struct CreatedGroup: Codable, Sendable, Equatable {
    let groupId: String
    let code: String
}

/// One row of `GET /groups/:id/leaderboard`: the seed's `interface LeaderboardEntry` with the
/// aliases `device` and `status` (docs/apps/thephone-backend.md, "Decisions where the seed is
/// silent") and `flagged`.
struct LeaderboardEntry: Codable, Sendable, Equatable {
    let rank: Int
    let username: String
    let device: String
    let totalPoints: Double
    let streakCount: Int
    let longestStreak: Int
    let trackingStatus: String
    let status: String
    let flagged: Bool
}

/// `PUT /users/me/tracking-status`'s body (seed: `type TrackingStatus = 'pending' | 'verified' |
/// 'broken'`).
struct TrackingStatusUpdate: Codable, Sendable, Equatable {
    enum Status: String, Codable, Sendable {
        case pending
        case verified
        case broken
    }

    let status: Status
}

/// `PUT /temptations/settings`'s body: the seed's `temptation_settings` row (`enabled`,
/// `intensity`, `quiet_start`, `quiet_end` as `HH:MM`).
struct TemptationSettingsUpdate: Codable, Sendable, Equatable {
    let enabled: Bool
    /// `low`, `medium` or `high`.
    let intensity: String
    let quietStart: String?
    let quietEnd: String?
}

/// `DELETE /users/me`'s answer: the seed's `{ success: true }`.
struct DeleteResponse: Codable, Sendable, Equatable {
    let success: Bool
}

/// An error answer: `{"error": <reason>}`, the reason one of those docs/apps/thephone.md,
/// "Intents", names.
struct ServerError: Codable, Sendable, Equatable {
    let error: String
}

/// Request bodies with optional members: `POST /auth/register` (`{}` signs up under the device's
/// defaults), `POST /auth/login`, `POST /groups`, `POST /invites/redeem`.
struct RegisterBody: Codable, Sendable, Equatable {
    let username: String?
}

struct LoginBody: Codable, Sendable, Equatable {
    let username: String
}

struct NewGroupBody: Codable, Sendable, Equatable {
    let name: String
    let description: String?
    let isPrivate: Bool?
}

struct RedeemBody: Codable, Sendable, Equatable {
    let code: String
}

/// Any JSON the server answered, handed on as it came (`data.export`).
enum JSONBody: Codable, Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONBody])
    case object([String: JSONBody])

    init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if let bool = try? value.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? value.decode(Int64.self) {
            self = .int(int)
        } else if let double = try? value.decode(Double.self) {
            self = .double(double)
        } else if let string = try? value.decode(String.self) {
            self = .string(string)
        } else if let array = try? value.decode([JSONBody].self) {
            self = .array(array)
        } else {
            self = .object(try value.decode([String: JSONBody].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var value = encoder.singleValueContainer()
        switch self {
        case .null: try value.encodeNil()
        case .bool(let bool): try value.encode(bool)
        case .int(let int): try value.encode(int)
        case .double(let double): try value.encode(double)
        case .string(let string): try value.encode(string)
        case .array(let array): try value.encode(array)
        case .object(let object): try value.encode(object)
        }
    }
}
