import Foundation

/// The seed's `POST /events/sync` ("Event Sync Endpoint", `services/sync.service.ts`).
extension PhoneBackend {
    /// Seed: `maxAge = 7 * 24 * 60 * 60 * 1000`.
    public static let maxEventAge: Int64 = 7 * 24 * 60 * 60 * 1000
    /// Seed: `timestamp > now + 60_000` is normalized to `now`.
    public static let futureTolerance: Int64 = 60_000

    /// The seed's `syncEvents` for `username` at `now`:
    /// - an event older than `now − 7 days` is rejected: neither stored nor confirmed;
    /// - a timestamp more than 60 s after `now` is stored as `now`;
    /// - a client id the user already has (`ON CONFLICT (user_id, client_id) DO NOTHING`), in an
    ///   earlier sync or earlier in this one, is ignored and not confirmed;
    /// - `newEvents` are the user's events created after `lastSync` whose client id is not in this
    ///   request (the other devices'), by timestamp, under the server's ids;
    /// - a sync that confirmed an event recalculates the user's current week
    ///   (the seed's `scoreQueue.add('recalculate')`, run at once).
    ///
    /// The rows' `created_at` and the answer's `serverTime` are the sync's instant
    /// (``syncInstant(now:)``): `now`, or 1 ms after the previous sync when that one ran at
    /// `now` or later, so that `created_at > lastSync` orders two syncs of one virtual instant as
    /// a real server orders two requests (docs/apps/thephone-backend.md, "Sync instants").
    ///
    /// Every event id must be a UUID (the seed's `z.string().uuid()`), or nothing is done.
    public mutating func syncEvents(username: String, request: SyncRequest, now: Int64) throws(PhoneBackendError) -> SyncResponse {
        let user = try requireUser(username)
        guard request.events.allSatisfy({ UUID(uuidString: $0.id) != nil }) else { throw .invalidClientId }
        let instant = syncInstant(now: now)
        lastSyncInstant = instant
        var stored = events.removeValue(forKey: user.id) ?? UserEvents()
        var confirmed: [SyncResponse.Confirmed] = []
        for event in request.events {
            if event.timestamp < now - Self.maxEventAge {
                continue
            }
            let timestamp = event.timestamp > now + Self.futureTolerance ? now : event.timestamp
            let clientId = event.id.lowercased()
            if stored.contains(clientId: clientId) {
                continue
            }
            let row = PhoneEvent(
                id: identifiers.next(), userId: user.id, clientId: clientId, eventType: event.eventType,
                timestamp: timestamp, source: event.source, createdAt: instant)
            stored.append(row)
            confirmed.append(SyncResponse.Confirmed(clientId: event.id, serverId: row.id))
        }
        events[user.id] = stored
        let requested = Set(request.events.map { $0.id.lowercased() })
        let newEvents = Self.byTimestamp(stored.rows.filter { $0.createdAt > request.lastSync && !requested.contains($0.clientId) })
            .map { SyncResponse.NewEvent(id: $0.id, eventType: $0.eventType, timestamp: $0.timestamp, source: $0.source) }
        if !confirmed.isEmpty {
            updateWeeklyScore(userId: user.id, now: now)
        }
        return SyncResponse(confirmed: confirmed, newEvents: newEvents, serverTime: instant)
    }

    /// The instant a sync at `now` runs at on the server: `now`, unless the previous sync ran at
    /// `now` or later (several devices at one virtual instant), then 1 ms after it. On a real
    /// server two requests never share a millisecond, and each later request's `Date.now()` is
    /// later than every row an earlier one inserted; virtual time has no such gaps, so the
    /// backend makes them. A backend saved before the instant was kept counts its clock as the
    /// last sync's (every sync it served ran at its clock or before). Never past the end of
    /// ``times`` (a backend whose last instant is there would otherwise save one it refuses to
    /// read); syncs at that end, 73 million years on, share it.
    func syncInstant(now: Int64) -> Int64 {
        min(max(now, (lastSyncInstant ?? clock) + 1), Self.times.upperBound)
    }

    /// What the backend stores for `username`, by timestamp (equal timestamps in insertion order).
    public func events(of username: String) throws(PhoneBackendError) -> [PhoneEvent] {
        Self.byTimestamp(events[try requireUser(username).id]?.rows ?? [])
    }

    /// `ORDER BY timestamp ASC`, ties in insertion order.
    static func byTimestamp(_ rows: [PhoneEvent]) -> [PhoneEvent] {
        rows.enumerated().sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }.map(\.element)
    }
}
