import SimulatediOS

/// The seed's Android `class SyncWorker : CoroutineWorker`, ported line by line:
///
/// - `doWork()`: the unsynced rows (`getUnsynced()`, oldest first); none ⇒ `success` without
///   asking the server; else `ApiClient.syncEvents(events, lastSync)`, `markSynced` each
///   confirmed row, `insert` each of `newEvents`, `setLastSyncTimestamp(serverTime)`, `success`.
///   Any exception (`catch (e: Exception)`: offline, an error answer, and the
///   `CancellationException` of a run that was replaced) ⇒ `retry` while `runAttemptCount < 3`,
///   else `failure`. `getUnsynced()` is outside the `try`, as in the seed.
/// - `enqueue(context)`: one-time work, network required, exponential backoff from 1 minute,
///   `enqueueUniqueWork("sync", ExistingWorkPolicy.REPLACE, request)` — a run in flight is
///   cancelled (at its next platform call) and replaced. The request names the worker's class;
///   WorkManager asks the app for one at each run (``ThePhoneApp/createWorker(workerClassName:)``),
///   so a sync waiting for the network or its backoff survives the process and a restart.
struct SyncWorker: CoroutineWorker {
    let platform: Platform
    let api: APIClient
    let eventDao: EventDao
    let preferences: Preferences

    func doWork(runAttemptCount: Int) async throws -> WorkResult {
        let unsyncedEvents = try await eventDao.getUnsynced()

        if unsyncedEvents.isEmpty {
            return .success
        }

        do {
            let response = try await api.syncEvents(
                events: unsyncedEvents.compactMap(\.syncPayload), lastSync: await preferences.getLastSyncTimestamp())

            // Mark events as synced
            for confirmed in response.confirmed {
                try await eventDao.markSynced(id: confirmed.clientId, serverId: confirmed.serverId)
            }

            // Store new events from server (multi-device)
            for serverEvent in response.newEvents {
                try await eventDao.insert(EventEntity(pulled: serverEvent, createdAt: platform.currentTimeMillis))
            }

            await preferences.setLastSyncTimestamp(response.serverTime)

            return .success
        } catch {
            if runAttemptCount < ThePhoneKeys.syncMaxRetries {
                return .retry
            } else {
                return .failure
            }
        }
    }

    /// Seed: `SyncWorker.enqueue(context)`.
    func enqueue() async throws {
        let request = OneTimeWorkRequest(SyncWorker.self, requiresNetwork: true, initialBackoffSeconds: ThePhoneKeys.syncBackoffSeconds)
        try await platform.workManager.enqueueUniqueWork(ThePhoneKeys.syncWorkName, .replace, request)
    }
}
