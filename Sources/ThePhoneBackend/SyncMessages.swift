/// The body of `POST /events/sync` (the seed's `syncRequestSchema` / `interface SyncRequest`,
/// "Event Sync Endpoint").
public struct SyncRequest: Codable, Sendable, Equatable {
    /// One event the device recorded.
    public struct Event: Codable, Sendable, Equatable {
        /// The device's UUID for the event.
        public let id: String
        public let eventType: PhoneEvent.EventType
        /// Milliseconds since 1970, by the device's clock.
        public let timestamp: Int64
        /// One of ``sources``.
        public let source: String

        /// What a client sends as `source`: the seed's iOS `EventSource` cases and the Android
        /// receiver's `automatic` (a raw client's `backend.sync` is refused anything else).
        public static let sources = ["shortcut", "manual", "install", "verification", "automatic"]

        public init(id: String, eventType: PhoneEvent.EventType, timestamp: Int64, source: String) {
            self.id = id
            self.eventType = eventType
            self.timestamp = timestamp
            self.source = source
        }
    }

    public let events: [Event]
    /// The `serverTime` of the device's previous sync, 0 if none.
    public let lastSync: Int64
    /// The device's clock; the seed reads it nowhere.
    public let clientTime: Int64

    public init(events: [Event], lastSync: Int64, clientTime: Int64) {
        self.events = events
        self.lastSync = lastSync
        self.clientTime = clientTime
    }
}

/// The answer of `POST /events/sync` (the seed's `interface SyncResponse`).
public struct SyncResponse: Codable, Sendable, Equatable {
    /// An event the backend stored: the device's id and the server's.
    public struct Confirmed: Codable, Sendable, Equatable {
        public let clientId: String
        public let serverId: String
    }

    /// An event of the user the device has not seen, under the server's id.
    public struct NewEvent: Codable, Sendable, Equatable {
        public let id: String
        public let eventType: PhoneEvent.EventType
        public let timestamp: Int64
        public let source: String
    }

    public let confirmed: [Confirmed]
    public let newEvents: [NewEvent]
    /// The backend's `now`, the device's next `lastSync`.
    public let serverTime: Int64
}
