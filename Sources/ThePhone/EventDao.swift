import SimulatediOS

/// The seed's `@Dao interface EventDao` over the Room table `events` (``RoomTable``): each
/// query a platform call (the seed's `suspend fun`s; a scheduling point, and a
/// `CancellationError` inside a cancelled WorkManager run).
struct EventDao: Sendable {
    let table: RoomTable<EventEntity>

    /// `@Insert(onConflict = OnConflictStrategy.REPLACE) suspend fun insert(event: EventEntity)`.
    func insert(_ event: EventEntity) async throws {
        try await table.insert(event)
    }

    /// `@Query("SELECT * FROM events WHERE synced = 0 ORDER BY timestamp ASC")`.
    func getUnsynced() async throws -> [EventEntity] {
        Self.byTimestamp(try await table.select { !$0.synced })
    }

    /// `@Query("UPDATE events SET synced = 1, server_id = :serverId WHERE id = :id")`.
    func markSynced(id: String, serverId: String) async throws {
        try await table.update(id: id) { row in
            row.synced = true
            row.serverId = serverId
        }
    }

    /// `@Query("SELECT * FROM events WHERE event_type = 'unlock' ORDER BY timestamp DESC LIMIT 1")`.
    func getLastUnlock() async throws -> EventEntity? {
        Self.byTimestamp(try await table.select { $0.eventType == EventType.unlock.rawValue }).last
    }

    /// `@Query("SELECT * FROM events WHERE timestamp >= :start AND timestamp < :end ORDER BY timestamp ASC")`.
    func getEventsInRange(start: Int64, end: Int64) async throws -> [EventEntity] {
        Self.byTimestamp(try await table.select { $0.timestamp >= start && $0.timestamp < end })
    }

    /// Project addition for `data.delete` and a switch of user (the seed's DAO has no delete).
    func deleteAll() async throws {
        try await table.deleteAll()
    }

    /// `ORDER BY timestamp ASC`, equal timestamps in insertion order.
    static func byTimestamp(_ rows: [EventEntity]) -> [EventEntity] {
        rows.enumerated().sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }.map(\.element)
    }
}
