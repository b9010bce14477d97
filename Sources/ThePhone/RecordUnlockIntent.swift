import SimulatediOS

/// The seed's App Intent `RecordUnlockIntent` ("Record Unlock", `openAppWhenRun = false`), offered
/// to Shortcuts as an App Shortcut (`ThePhoneShortcuts`): the user's personal automation "When
/// iPhone is unlocked" runs it, in the app's process, launching it if needed. It is the only
/// way the iOS client hears of an unlock (seed, "The iOS Constraint").
///
/// `perform()`, as the seed: a new `UnlockEvent(id: UUID(), timestamp: Date(), source:
/// .shortcut)`; `EventStore.recordUnlock` (whose `.unlockRecorded` notification reaches
/// `SetupManager.onUnlockReceived()`); then `SyncManager.scheduleSync()` ("Sync is attempted
/// immediately after recording"). Each record is signposted `eventRecorded`.
struct RecordUnlockIntent: Sendable {
    /// Seed: `static var title: LocalizedStringResource = "Record Unlock"`.
    static let title = "Record Unlock"

    let platform: Platform
    let eventStore: EventStore
    let setupManager: SetupManager
    let syncManager: SyncManager

    func perform() async throws {
        let event = UnlockEvent(id: platform.uuid(), eventType: .unlock, timestamp: platform.currentTimeMillis, source: .shortcut)
        // Store locally
        await eventStore.recordUnlock(event)
        platform.signposter.emitEvent("eventRecorded", ["eventType": .string("unlock"), "source": .string(event.source)])
        // Notify UI to update (.unlockRecorded): the setup screen listens
        await setupManager.onUnlockReceived()
        // Trigger background sync if possible
        await syncManager.scheduleSync()
    }
}

/// Project choice (trigger `lock`, docs/apps/thephone.md, "How unlocks arrive on iOS"):
/// `RecordUnlockIntent`'s twin for "When iPhone is locked", so that the iOS client can record the
/// locks its scores need. The seed has no such intent: with its `unlock` automation alone no lock
/// is ever recorded and every score is 0.
struct RecordLockIntent: Sendable {
    static let title = "Record Lock"

    let platform: Platform
    let eventStore: EventStore
    let syncManager: SyncManager

    func perform() async throws {
        let event = UnlockEvent(id: platform.uuid(), eventType: .lock, timestamp: platform.currentTimeMillis, source: .shortcut)
        await eventStore.recordUnlock(event)
        platform.signposter.emitEvent("eventRecorded", ["eventType": .string("lock"), "source": .string(event.source)])
        await syncManager.scheduleSync()
    }
}
