import Foundation
import SimulatediOS

/// Clarity's main app (seed 000): its SwiftData store (``ClarityStore``) and the services of
/// tasks 2, 8 and 9, as one actor: in the real app they all run on the main thread.
///
/// Services are split by file (`ClarityMainApp+<Service>.swift`); the pure decisions live in
/// value types (``CallVerificationService``, ``ProsocialChallengeEngine``) and this actor performs
/// the I/O: App Group writes, shields, DeviceActivity, deep links and timers.
actor ClarityMainApp: WorldActor {
    nonisolated let executor: WorldActorExecutor
    let platform: Platform
    let thresholdsMinutes: [Int]
    /// The fix for task 2c's race is on (``ClarityConfig/verificationNamesChallenge``).
    let verificationNamesChallenge: Bool
    var store: ClarityStore
    var callVerification = CallVerificationService()
    /// When the call watch started (to re-arm its timeout after a restart).
    var callWatchStartedAt: Double?
    /// Bumped on every change to ``store`` (the device saves when it moves).
    nonisolated let dataRevision = DataRevision()
    var timers: [String: AppTimerID] = [:]

    init(executor: WorldActorExecutor, platform: Platform, thresholdsMinutes: [Int], verificationNamesChallenge: Bool) {
        self.executor = executor
        self.platform = platform
        self.thresholdsMinutes = thresholdsMinutes
        self.verificationNamesChallenge = verificationNamesChallenge
        self.store = ClarityStore(profile: .init(installedAt: platform.now.seconds))
    }

    var sharedDefaults: AppGroupDefaults { platform.userDefaults(suiteName: ClarityKeys.appGroup) }
    var now: Double { platform.now.seconds }
    var engine: ProsocialChallengeEngine { ProsocialChallengeEngine(platform: platform, now: now) }

    /// Marks the store changed.
    func changed() { dataRevision.bump() }

    /// A fresh UUID from the device's seeded generator (`UUID()` would break replay).
    func newID() -> String { platform.uuid() }

    /// Replaces the timer named `name` (one of each kind at a time).
    func setTimer(_ name: String, after seconds: Double, _ action: @escaping @Sendable () async throws -> Void) {
        if let old = timers[name] { platform.cancelAppTimer(old) }
        timers[name] = platform.scheduleAppTimer(after: max(0, seconds), label: "clarity.\(name)", action: action)
    }

    func cancelTimer(_ name: String) {
        if let old = timers.removeValue(forKey: name) { platform.cancelAppTimer(old) }
    }

    // MARK: - Lifecycle

    private struct Persisted: Codable {
        var store: ClarityStore
        var callVerification: CallVerificationService
        var callWatchStartedAt: Double?
    }

    func persistentData() throws -> Data {
        try PersistentData.encode(
            Persisted(store: store, callVerification: callVerification, callWatchStartedAt: callWatchStartedAt))
    }

    func restore(from data: Data) throws {
        let persisted = try JSONDecoder().decode(Persisted.self, from: data)
        store = persisted.store
        callVerification = persisted.callVerification
        callWatchStartedAt = persisted.callWatchStartedAt
    }

    /// App launch (seed 000 task 12b `onAppear`): ask to post notifications (the seed's nudges
    /// need it; iOS shows none to an app that never asked, so the port asks first), observe calls (`CXCallObserver`, task 2a) and
    /// networks (`NWPathMonitor`, the WiFi gate), listen for transactions, refresh the
    /// subscription, clean up old data, schedule the daily cleanup, start WiFi monitoring; and
    /// re-arm what was pending (a focus session's end, a call watch).
    func launch() async throws {
        try await platform.notificationCenter.requestAuthorization()
        platform.callObserver.setDelegate { [weak self] call in try await self?.callChanged(call) }
        platform.pathMonitor.start { [weak self] path in try await self?.networkChanged(ssid: path.ssid) }
        await platform.storeKitServices.configure(products: Self.products)
        await platform.storeKitServices.listenForTransactions { [weak self] _ in
            try await self?.updateSubscriptionStatus()
        }
        try await updateSubscriptionStatus()
        try cleanupOnLaunch()
        scheduleCleanup()
        try await startWiFiMonitoring()
        try await rearmFocusSession()
        if let challengeId = callVerification.pendingChallengeId, let started = callWatchStartedAt {
            armCallWatchTimeout(challengeId: challengeId, after: started + Double(ProsocialLimits.callWatchTimeout) - now)
        }
    }

    /// The app came to the foreground: check a pending text verification (task 2e
    /// `checkTextVerification`, "polled from main app when returning from Messages") and issue
    /// the challenge of a prosocial friction layer.
    func didBecomeActive() async throws {
        try await checkTextVerification()
        try await issueChallengeIfDue()
        try await recordTodaySnapshot()
    }
}
