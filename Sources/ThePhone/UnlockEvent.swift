/// Where an event came from: the seed's iOS `enum EventSource: String, Codable` (its four cases)
/// and the Android receiver's `EventSource.AUTOMATIC`. The simulated clients record only `shortcut`
/// (iOS, docs/apps/thephone.md, "How unlocks arrive on iOS") and `automatic` (Android,
/// docs/apps/thephone.md, "The Android client"); the others exist as the seed declares them.
enum EventSource: String, Codable, Sendable, CaseIterable {
    /// Seed: "From Shortcuts automation".
    case shortcut
    /// Seed: "Manual session end (fallback)".
    case manual
    /// Seed: "Synthetic event at install".
    case install
    /// Seed: "Test unlock during setup".
    case verification
    /// Seed (Android `ScreenStateReceiver`): `EventSource.AUTOMATIC`, sent as `automatic`.
    case automatic
}

/// A lock or an unlock (the seed's sync schema: `eventType: z.enum(['lock', 'unlock'])`).
enum EventType: String, Codable, Sendable, CaseIterable {
    case lock
    case unlock
}

/// One event in the iOS client's store: the seed's `struct UnlockEvent` (`id`, `timestamp`,
/// `source`, `synced`, `serverId`). Project additions: `eventType`, because the `lock` automation
/// (a choice, docs/apps/thephone.md, "How unlocks arrive on iOS") records locks through the same
/// store and the sync schema needs the type; `timestamp` in milliseconds since 1970 (the seed's
/// `Date`, as the sync sends it). Events pulled from the backend (`newEvents`, other devices of the
/// user) are stored under the server's id, already synced, with the source the backend gave.
struct UnlockEvent: Codable, Sendable, Equatable {
    /// The device's UUID (`UUID()`: `platform.uuid()`), or the server's id for a pulled event.
    let id: String
    let eventType: EventType
    /// Milliseconds since 1970 by the device's clock (`Date()`).
    let timestamp: Int64
    /// An ``EventSource`` raw value; a pulled event keeps the backend's string.
    let source: String
    /// Seed: `var synced: Bool = false`.
    var synced: Bool
    /// Seed: `var serverId: String?`.
    var serverId: String?

    /// A new event recorded on this device, not yet synced.
    init(id: String, eventType: EventType, timestamp: Int64, source: EventSource) {
        self.id = id
        self.eventType = eventType
        self.timestamp = timestamp
        self.source = source.rawValue
        self.synced = false
        self.serverId = nil
    }

    /// An event another device of the user recorded, as the backend returned it in `newEvents`:
    /// already on the server, so synced (else the next sync would push it back as new).
    init(pulled event: SyncEventsResponse.NewEvent) {
        id = event.id
        eventType = event.eventType
        timestamp = event.timestamp
        source = event.source
        synced = true
        serverId = event.id
    }

    /// What `POST /events/sync` sends of it.
    var syncPayload: SyncEventsRequest.Event {
        SyncEventsRequest.Event(id: id, eventType: eventType, timestamp: timestamp, source: source)
    }

    var scored: ScoredEvent { ScoredEvent(eventType: eventType, timestamp: timestamp) }
}
