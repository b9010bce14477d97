import Foundation
import SimulatediOS

/// The seed's iOS client ("iOS Implementation"): unlocks arrive only through the Shortcuts
/// automation the user makes (``RecordUnlockIntent``; the `lock` twin is a project choice), are
/// kept in the ``EventStore`` and synced by the ``SyncManager``; the ``SetupManager`` verifies the
/// automation; the ``TrackingHealthMonitor`` checks it each time the app becomes active and the
/// result is reported to the backend (docs/apps/thephone.md, "How unlocks arrive on iOS").
///
/// Syncs run after each record, when the app becomes active, when the network comes back
/// (``scheduleSync()``, from the main app's `NWPathMonitor`), after a change of user, and on the
/// `sync` intent.
actor ThePhoneiOSClient: WorldActor {
    nonisolated let executor: WorldActorExecutor
    private let platform: Platform
    private let revision: DataRevision
    let eventStore: EventStore
    let setupManager: SetupManager
    let syncManager: SyncManager
    private let reporter: TrackingStatusReporter
    private let healthMonitor = TrackingHealthMonitor()
    /// The last check's result (`device.state.app.trackingHealth`), nil before the first.
    private(set) var health: TrackingHealthMonitor.HealthStatus? {
        didSet { if health != oldValue { revision.bump() } }
    }

    init(executors: ProcessExecutors, platform: Platform, api: APIClient, session: Session, revision: DataRevision) {
        executor = executors.makeExecutor(label: "thephone.ios")
        self.platform = platform
        self.revision = revision
        eventStore = EventStore(executor: executors.makeExecutor(label: "thephone.eventStore"), revision: revision)
        reporter = TrackingStatusReporter(api: api, session: session)
        setupManager = SetupManager(
            executor: executors.makeExecutor(label: "thephone.setup"), platform: platform, eventStore: eventStore, reporter: reporter,
            revision: revision)
        syncManager = SyncManager(
            executor: executors.makeExecutor(label: "thephone.sync"), api: api, eventStore: eventStore, session: session,
            revision: revision)
    }

    /// The seed's `ThePhoneShortcuts: AppShortcutsProvider` (and the `lock` twin).
    nonisolated var appShortcuts: [AppShortcut] {
        let unlock = RecordUnlockIntent(platform: platform, eventStore: eventStore, setupManager: setupManager, syncManager: syncManager)
        let lock = RecordLockIntent(platform: platform, eventStore: eventStore, syncManager: syncManager)
        return [
            AppShortcut(name: ThePhoneKeys.recordUnlockShortcut) { try await unlock.perform() },
            AppShortcut(name: ThePhoneKeys.recordLockShortcut) { try await lock.perform() },
        ]
    }

    // MARK: - Lifecycle

    /// Launch: a verification window a snapshot kept open gets its timer back.
    func launch() async {
        await setupManager.resume()
    }

    /// The app became active: the health checks (seed: "Called every time app comes to
    /// foreground"), their report, then a sync.
    func didBecomeActive() async {
        await checkHealth()
        await syncManager.scheduleSync()
    }

    /// `SyncManager.scheduleSync()`: the internet came back (`NWPathMonitor`), or another user
    /// signed in (a pull from the start).
    func scheduleSync() async {
        await syncManager.scheduleSync()
    }

    func processEnded() async {
        await setupManager.processEnded()
    }

    /// docs/apps/thephone.md, "Setup and tracking health": `checkHealth()` then
    /// `onAppForeground()`; any issue but `neverVerified` reports `broken`, a healthy check
    /// `verified` (choice); each check signposted `trackingHealth`.
    func checkHealth() async {
        let status = healthMonitor.checkOnBecomingActive(
            now: platform.currentTimeMillis, verificationDate: await setupManager.verificationDate,
            lastUnlock: await eventStore.getLastUnlockTimestamp())
        health = status
        var fields: [String: StoredValue] = ["healthy": .bool(status.isHealthy), "issue": .string(status.issue?.name ?? "none")]
        if let hours = status.issue?.hoursSinceLastUnlock { fields["hoursSinceLastUnlock"] = .int(hours) }
        platform.signposter.emitEvent("trackingHealth", fields)
        switch status.issue {
        case nil: await reporter.report(.verified)
        case .neverVerified: break
        case .noRecentUnlocks, .appOpenWithoutRecentUnlock: await reporter.report(.broken)
        }
    }

    // MARK: - Intents

    /// `installAutomation`: the user makes the personal automation ("When iPhone is unlocked" →
    /// "Record Unlock"; the seed's last step turns "Ask Before Running" off).
    func installAutomation(trigger: AutomationTrigger, askBeforeRunning: Bool) async throws {
        let shortcut = trigger == .unlock ? ThePhoneKeys.recordUnlockShortcut : ThePhoneKeys.recordLockShortcut
        try await platform.shortcuts.install(Automation(trigger: trigger, shortcut: shortcut, askBeforeRunning: askBeforeRunning))
    }

    /// `removeAutomation`: the user deleted it (what the health monitor exists to notice).
    func removeAutomation(trigger: AutomationTrigger) async throws {
        try await platform.shortcuts.remove(trigger)
    }

    func automations() async throws -> [Automation] {
        try await platform.shortcuts.list()
    }

    /// `setup.begin`: "I've completed setup" → `beginVerification()`.
    func beginSetup() async {
        await setupManager.beginVerification()
    }

    /// The `sync` intent: one sync, its refusal passed on.
    func sync() async throws {
        try await syncManager.sync()
    }

    /// Another user on this device, or none (`account.*`, `data.delete`): the local log and the
    /// sync point go (choice: a user's events are not uploaded into another's account).
    func forgetUserData() async {
        await eventStore.removeAll()
        await syncManager.reset()
    }

    // MARK: - What it shows and keeps

    func events() async -> [UnlockEvent] { await eventStore.events }

    func lastSync() async -> Int64? { await syncManager.lastSync }

    struct Saved: Codable, Sendable, Equatable {
        let events: [UnlockEvent]
        let lastSync: Int64?
        let setup: SetupManager.Saved
        let health: TrackingHealthMonitor.HealthStatus?
    }

    func saved() async -> Saved {
        Saved(
            events: await eventStore.events, lastSync: await syncManager.lastSync, setup: await setupManager.saved,
            health: health)
    }

    func restore(_ saved: Saved) async {
        await eventStore.restore(saved.events)
        await syncManager.restore(lastSync: saved.lastSync)
        await setupManager.restore(saved.setup)
        health = saved.health
    }
}
