import SimulatediOS

/// The Android client's `Preferences` (the seed's `Preferences.getLastSyncTimestamp(context)` /
/// `setLastSyncTimestamp(context, serverTime)`, SharedPreferences): kept in the app's own data.
actor Preferences: WorldActor {
    nonisolated let executor: WorldActorExecutor
    private let revision: DataRevision
    /// The last sync's `serverTime`, nil before the first (read as 0).
    private(set) var lastSyncTimestamp: Int64?

    init(executor: WorldActorExecutor, revision: DataRevision) {
        self.executor = executor
        self.revision = revision
    }

    /// Seed: `getLastSyncTimestamp` — 0 when never set.
    func getLastSyncTimestamp() -> Int64 { lastSyncTimestamp ?? 0 }

    func setLastSyncTimestamp(_ timestamp: Int64?) {
        guard timestamp != lastSyncTimestamp else { return }
        lastSyncTimestamp = timestamp
        revision.bump()
    }

    func restore(lastSyncTimestamp: Int64?) {
        self.lastSyncTimestamp = lastSyncTimestamp
    }
}
