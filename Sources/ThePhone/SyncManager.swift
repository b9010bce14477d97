import SimulatediOS

/// The iOS client's `SyncManager` (the seed calls `SyncManager.shared.scheduleSync()` after each
/// record and shows no more of it). It runs the steps of the seed's Android `SyncWorker`
/// (docs/apps/thephone.md, "Sync"): push the unsynced events oldest first, mark each confirmed one
/// synced under its server id, store the `newEvents` (the user's other devices), keep `serverTime`
/// as `lastSync`.
///
/// Differences from the Android worker (choices): an empty push still asks the server, so that
/// a phone with nothing new pulls its other devices' events (the worker returns at once); it
/// runs at once (seed: "Sync is attempted immediately after recording"), with no retry: the
/// next record, the app becoming active or the network coming back (``ThePhoneiOSClient``)
/// tries again. Events the server rejects (older than 7 days, duplicates) are never confirmed
/// and stay unsynced for ever (seed gap kept, docs/apps/thephone.md, "Seed gaps kept").
actor SyncManager: WorldActor {
    nonisolated let executor: WorldActorExecutor
    private let api: APIClient
    private let eventStore: EventStore
    private let session: Session
    private let revision: DataRevision
    /// The last answer's `serverTime` (ms since 1970), nil before the first sync.
    private(set) var lastSync: Int64?

    init(executor: WorldActorExecutor, api: APIClient, eventStore: EventStore, session: Session, revision: DataRevision) {
        self.executor = executor
        self.api = api
        self.eventStore = eventStore
        self.session = session
        self.revision = revision
    }

    /// Seed: `scheduleSync()` — "Trigger background sync if possible": a sync now when signed
    /// in; a failure (offline) is dropped.
    func scheduleSync() async {
        guard await session.username != nil else { return }
        do {
            try await sync()
        } catch {
            // Dropped: the trace shows the request that failed; a later trigger tries again.
        }
    }

    /// One sync; throws the request's refusal (`offline`, `notSignedIn`…) before changing anything.
    func sync() async throws {
        let unsyncedEvents = await eventStore.getUnsyncedEvents()
        let response = try await api.syncEvents(events: unsyncedEvents.map(\.syncPayload), lastSync: lastSync ?? 0)
        // Mark events as synced
        await eventStore.markSynced(ids: response.confirmed.map(\.clientId), serverIds: response.confirmed.map(\.serverId))
        // Store new events from server (multi-device)
        await eventStore.storePulled(response.newEvents)
        lastSync = response.serverTime
        revision.bump()
    }

    /// Another user on this device (`account.*`, `data.delete`): the next sync pulls from the start.
    func reset() {
        guard lastSync != nil else { return }
        lastSync = nil
        revision.bump()
    }

    func restore(lastSync: Int64?) {
        self.lastSync = lastSync
    }
}
