import SimulatediOS

/// The iOS client's event log: the seed's `actor EventStore` (its Core Data container is the
/// app's own data here, saved in the device's snapshot through ``ThePhoneMainApp``'s
/// persistent data; every change bumps the app's ``DataRevision``).
///
/// Seed methods kept: `recordUnlock(_:)` (also for the `lock` automation's events, a choice:
/// docs/apps/thephone.md, "How unlocks arrive on iOS"), `getUnsyncedEvents()`,
/// `markSynced(ids:serverIds:)`, `getLastUnlockTimestamp()`. Added for the sync's pull (seed:
/// "Store new events from server (multi-device)") and `data.delete`: ``storePulled(_:)``,
/// ``removeAll()``.
actor EventStore: WorldActor {
    nonisolated let executor: WorldActorExecutor
    private let revision: DataRevision
    /// In the order they were stored.
    private(set) var events: [UnlockEvent] = []

    init(executor: WorldActorExecutor, revision: DataRevision) {
        self.executor = executor
        self.revision = revision
    }

    /// Seed: `recordUnlock(_ event:)` — stored with `synced = false`.
    func recordUnlock(_ event: UnlockEvent) {
        events.append(event)
        revision.bump()
    }

    /// Seed: "Fetch from Core Data where synced == false", oldest first (the Android DAO's
    /// `ORDER BY timestamp ASC`; equal timestamps in the order stored).
    func getUnsyncedEvents() -> [UnlockEvent] {
        sortedByTimestamp(events.filter { !$0.synced })
    }

    /// Seed: `markSynced(ids:serverIds:)` — "Update Core Data records".
    func markSynced(ids: [String], serverIds: [String]) {
        for (id, serverId) in zip(ids, serverIds) {
            guard let index = events.firstIndex(where: { $0.id == id }) else { continue }
            events[index].synced = true
            events[index].serverId = serverId
        }
        if !ids.isEmpty { revision.bump() }
    }

    /// Seed: "Return most recent unlock timestamp" (pulled unlocks included).
    func getLastUnlockTimestamp() -> Int64? {
        events.filter { $0.eventType == .unlock }.map(\.timestamp).max()
    }

    /// The server's `newEvents`, stored under the server's id (a second copy replaces the first,
    /// as Room's `REPLACE` does on Android).
    func storePulled(_ pulled: [SyncEventsResponse.NewEvent]) {
        guard !pulled.isEmpty else { return }
        for event in pulled.map(UnlockEvent.init(pulled:)) {
            if let index = events.firstIndex(where: { $0.id == event.id }) {
                events[index] = event
            } else {
                events.append(event)
            }
        }
        revision.bump()
    }

    /// `data.delete` (and a switch of user): the local log is cleared (a choice,
    /// docs/apps/thephone.md, "Intents").
    func removeAll() {
        guard !events.isEmpty else { return }
        events.removeAll()
        revision.bump()
    }

    func restore(_ saved: [UnlockEvent]) {
        events = saved
    }

    private func sortedByTimestamp(_ list: [UnlockEvent]) -> [UnlockEvent] {
        list.enumerated().sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }.map(\.element)
    }
}
