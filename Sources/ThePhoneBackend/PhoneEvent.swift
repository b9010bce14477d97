/// A row of the seed's append-only `events` table ("Database Schema").
public struct PhoneEvent: Codable, Sendable, Equatable {
    /// The seed's `event_type … CHECK (event_type IN ('lock', 'unlock'))`.
    public enum EventType: String, Codable, Sendable, CaseIterable {
        case lock
        case unlock
    }

    /// The server's id (the seed's `serverId`).
    public let id: String
    public let userId: String
    /// The device's id for the event, lowercased as PostgreSQL stores a `UUID`
    /// (seed: `UNIQUE (user_id, client_id)`).
    public let clientId: String
    public let eventType: EventType
    /// Milliseconds since 1970, after the sync's future clamp (seed's `syncEvents`).
    public let timestamp: Int64
    public let source: String
    /// The backend time of the insert, in milliseconds (seed: `created_at … DEFAULT NOW()`).
    public let createdAt: Int64
}
