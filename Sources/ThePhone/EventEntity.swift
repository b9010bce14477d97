/// The Android client's Room row: the seed's `@Entity(tableName = "events") data class
/// EventEntity`, its columns under their `@ColumnInfo` names in the app's saved data.
struct EventEntity: Codable, Sendable, Identifiable, Equatable {
    /// `@PrimaryKey val id: String` — the device's UUID, or the server's id for a pulled event.
    let id: String
    /// `"lock"` or `"unlock"`.
    let eventType: String
    /// `System.currentTimeMillis()` when received.
    let timestamp: Int64
    let source: String
    /// Seed: `val synced: Boolean = false`.
    var synced: Bool
    /// Seed: `val serverId: String? = null`.
    var serverId: String?
    /// Seed: `val createdAt: Long = System.currentTimeMillis()`.
    let createdAt: Int64

    enum CodingKeys: String, CodingKey {
        case id
        case eventType = "event_type"
        case timestamp, source, synced
        case serverId = "server_id"
        case createdAt = "created_at"
    }

    /// `UnlockEvent(…).toEntity()` / `LockEvent(…).toEntity()` in the receiver: not synced yet.
    init(id: String, eventType: EventType, timestamp: Int64, source: EventSource, createdAt: Int64) {
        self.id = id
        self.eventType = eventType.rawValue
        self.timestamp = timestamp
        self.source = source.rawValue
        self.synced = false
        self.serverId = nil
        self.createdAt = createdAt
    }

    /// `serverEvent.toEntity()` in `SyncWorker` ("Store new events from server (multi-device)").
    /// The seed does not show `toEntity()`; the row is taken as synced under the server's id
    /// (choice), else the next sync would push it back as a new event of the user.
    init(pulled event: SyncEventsResponse.NewEvent, createdAt: Int64) {
        id = event.id
        eventType = event.eventType.rawValue
        timestamp = event.timestamp
        source = event.source
        synced = true
        serverId = event.id
        self.createdAt = createdAt
    }

    /// `toSyncPayload()`.
    var syncPayload: SyncEventsRequest.Event? {
        EventType(rawValue: eventType).map { SyncEventsRequest.Event(id: id, eventType: $0, timestamp: timestamp, source: source) }
    }

    var scored: ScoredEvent? {
        EventType(rawValue: eventType).map { ScoredEvent(eventType: $0, timestamp: timestamp) }
    }
}
