import SimulatediOS

/// The seed's Android `class ScreenStateReceiver : BroadcastReceiver`, registered in the
/// manifest for `USER_PRESENT` and `SCREEN_OFF` ("survives process death"):
///
/// - `ACTION_USER_PRESENT` ("User unlocked (after PIN/biometric)") → `recordUnlock`: the event
///   (`UUID.randomUUID()`, `System.currentTimeMillis()`, `EventSource.AUTOMATIC`) is made in
///   `onReceive`, then `CoroutineScope(Dispatchers.IO).launch { insert; SyncWorker.enqueue }`.
/// - `ACTION_SCREEN_OFF` ("Screen turned off (locked)") → `recordLock`: the same, insert only —
///   the seed schedules no sync after a lock (it goes with the next unlock's).
///
/// Each record is signposted `eventRecorded` when its row is in.
struct ScreenStateReceiver: Sendable {
    let platform: Platform
    let eventDao: EventDao
    let syncWorker: SyncWorker

    func onReceive(_ action: BroadcastAction) async throws {
        switch action {
        case .userPresent:
            // User unlocked (after PIN/biometric)
            try recordUnlock()
        case .screenOff:
            // Screen turned off (locked)
            try recordLock()
        }
    }

    private func recordUnlock() throws {
        let event = newEvent(.unlock)
        let eventDao = eventDao
        let syncWorker = syncWorker
        let platform = platform
        // Insert into Room database
        try platform.coroutineScope.launch("recordUnlock") {
            try await eventDao.insert(event)
            platform.signposter.emitEvent("eventRecorded", ["eventType": .string("unlock"), "source": .string(event.source)])
            // Schedule sync
            try await syncWorker.enqueue()
        }
    }

    private func recordLock() throws {
        let event = newEvent(.lock)
        let eventDao = eventDao
        let platform = platform
        try platform.coroutineScope.launch("recordLock") {
            try await eventDao.insert(event)
            platform.signposter.emitEvent("eventRecorded", ["eventType": .string("lock"), "source": .string(event.source)])
        }
    }

    private func newEvent(_ type: EventType) -> EventEntity {
        let now = platform.currentTimeMillis
        return EventEntity(id: platform.uuid(), eventType: type, timestamp: now, source: .automatic, createdAt: now)
    }
}
