import SimulatediOS

/// The seed's Android client ("Android Implementation"; docs/apps/thephone.md, "The Android
/// client"): the manifest receiver (``ScreenStateReceiver``) records every unlock and lock by
/// itself — no automation, no setup window, no health monitor (the seed has none on Android) — into
/// the Room table `events` (``EventDao``), and each unlock enqueues the ``SyncWorker``. The `sync`
/// intent enqueues it too.
actor ThePhoneAndroidClient: WorldActor {
    nonisolated let executor: WorldActorExecutor
    private let platform: Platform
    private let table: RoomTable<EventEntity>
    let eventDao: EventDao
    let preferences: Preferences
    let syncWorker: SyncWorker
    let receiver: ScreenStateReceiver
    /// The manifest's `<receiver>` is declared once per install: the system keeps it across the
    /// app's process (`launch()` runs again after `app.terminate`).
    private var receiverDeclared = false

    init(executors: ProcessExecutors, platform: Platform, api: APIClient, revision: DataRevision) {
        executor = executors.makeExecutor(label: "thephone.android")
        self.platform = platform
        // Seed: Room.databaseBuilder(context, EventDatabase::class.java, "thephone.db"), table "events".
        table = RoomTable("events", on: platform, revision: revision)
        eventDao = EventDao(table: table)
        preferences = Preferences(executor: executors.makeExecutor(label: "thephone.preferences"), revision: revision)
        syncWorker = SyncWorker(platform: platform, api: api, eventDao: eventDao, preferences: preferences)
        receiver = ScreenStateReceiver(platform: platform, eventDao: eventDao, syncWorker: syncWorker)
    }

    /// The manifest registration (`<intent-filter>` `USER_PRESENT`, `SCREEN_OFF`).
    func launch() throws {
        guard !receiverDeclared else { return }
        receiverDeclared = true
        let receiver = receiver
        try platform.androidManifest.registerReceiver(actions: [.userPresent, .screenOff]) { action in
            try await receiver.onReceive(action)
        }
    }

    /// The `sync` intent: `SyncWorker.enqueue` (REPLACE); it runs at once when online.
    func sync() async throws {
        try await syncWorker.enqueue()
    }

    /// Another user on this device, or none (`account.*`, `data.delete`): the table and the
    /// sync point go (choice, as on iOS).
    func forgetUserData() async throws {
        try await eventDao.deleteAll()
        await preferences.setLastSyncTimestamp(nil)
    }

    // MARK: - What it shows and keeps

    /// Every row (not a DAO call: no scheduling point), for the dashboard.
    func rows() async -> [EventEntity] { await table.contents() }

    func lastSync() async -> Int64? { await preferences.lastSyncTimestamp }

    struct Saved: Codable, Sendable, Equatable {
        let events: [EventEntity]
        let lastSync: Int64?
    }

    func saved() async -> Saved {
        Saved(events: await table.contents(), lastSync: await preferences.lastSyncTimestamp)
    }

    func restore(_ saved: Saved) async {
        await table.restore(saved.events)
        await preferences.restore(lastSyncTimestamp: saved.lastSync)
    }
}
