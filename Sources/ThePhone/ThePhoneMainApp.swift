import Foundation
import SimulatediOS

/// The Phone's main app (seed 001), iOS or Android by the device's `platform`: what both
/// clients share — the account, groups, temptation settings, GDPR export and delete — and the
/// platform's own tracking client (``ThePhoneiOSClient``, ``ThePhoneAndroidClient``).
///
/// Launch: notification authorization is asked (temptations arrive as pushes, which iOS shows only
/// to an app the user allowed), the client starts (iOS: its `NWPathMonitor`; Android: the manifest
/// receiver), and at the first launch the device signs up as a user named after it (a choice,
/// docs/apps/thephone.md, "Accounts"; `POST /auth/register {}`). Intents that need the server
/// refuse `notSignedIn` when the device is signed out, and pass the server's refusals on.
actor ThePhoneMainApp: WorldActor {
    /// The platform's tracking client.
    enum Client: Sendable {
        case ios(ThePhoneiOSClient)
        case android(ThePhoneAndroidClient)
    }

    nonisolated let executor: WorldActorExecutor
    nonisolated let dataRevision = DataRevision()
    nonisolated let client: Client
    private let platform: Platform
    private let api: APIClient
    private let session: Session
    /// The user's groups as this device knows them (`GET /groups` after a sign-in; each
    /// `group.*` intent's answer).
    private var groups: [GroupMembership] = [] {
        didSet { if groups != oldValue { dataRevision.bump() } }
    }
    /// Joins queued offline and the leaderboards last fetched (``OfflineGroups``).
    private var offline = OfflineGroups() {
        didSet { if offline != oldValue { dataRevision.bump() } }
    }
    /// A pass over the queued joins is sending them (an actor's calls interleave at each request).
    private var sendingQueuedJoins = false
    /// What the user last set (`setTemptations`), nil if never on this device.
    private var temptations: TemptationPreferences? {
        didSet { if temptations != oldValue { dataRevision.bump() } }
    }
    /// `NWPathMonitor`'s last answer (iOS): a sync when it turns satisfied.
    private var pathSatisfied = true

    init(executors: ProcessExecutors, platform: Platform) {
        executor = executors.makeExecutor(label: "thephone.app")
        self.platform = platform
        api = APIClient(platform: platform)
        session = Session(executor: executors.makeExecutor(label: "thephone.session"), revision: dataRevision)
        switch platform.devicePlatform {
        case .ios:
            client = .ios(ThePhoneiOSClient(executors: executors, platform: platform, api: api, session: session, revision: dataRevision))
        case .android:
            client = .android(ThePhoneAndroidClient(executors: executors, platform: platform, api: api, revision: dataRevision))
        }
    }

    nonisolated var isAndroid: Bool {
        if case .android = client { return true }
        return false
    }

    /// `WorkerFactory.createWorker`: the Android client's ``SyncWorker``, by its class name.
    nonisolated func createWorker(workerClassName: String) -> (any CoroutineWorker)? {
        guard case .android(let android) = client, workerClassName == String(describing: SyncWorker.self) else { return nil }
        return android.syncWorker
    }

    nonisolated var appShortcuts: [AppShortcut] {
        guard case .ios(let ios) = client else { return [] }
        return ios.appShortcuts
    }

    // MARK: - Lifecycle

    func launch() async throws {
        try await platform.notificationCenter.requestAuthorization()
        switch client {
        case .ios(let ios):
            pathSatisfied = try await platform.urlSession.isOnline()
            platform.pathMonitor.start { [weak self] path in await self?.pathChanged(path) }
            await ios.launch()
        case .android(let android):
            try await android.launch()
        }
        await signUpIfNeeded()
        await sendQueuedJoins()
    }

    /// iOS: the health checks and a sync (``ThePhoneiOSClient/didBecomeActive()``). Android: the
    /// seed does nothing when its app opens (its syncs follow unlocks).
    func didBecomeActive() async throws {
        await signUpIfNeeded()
        await sendQueuedJoins()
        if case .ios(let ios) = client { await ios.didBecomeActive() }
    }

    func processEnded() async {
        if case .ios(let ios) = client { await ios.processEnded() }
    }

    /// `NWPathMonitor.pathUpdateHandler`: back online ⇒ the pending sign-up, the queued joins,
    /// then a sync.
    private func pathChanged(_ path: NetworkPath) async {
        let cameBack = path.isSatisfied && !pathSatisfied
        pathSatisfied = path.isSatisfied
        guard cameBack, case .ios(let ios) = client else { return }
        await signUpIfNeeded()
        await sendQueuedJoins()
        await ios.scheduleSync()
    }

    /// The first launch's sign-up (`POST /auth/register {}`: the device's name, zone and
    /// platform). Offline or unreachable, it is tried again later; refused (`usernameTaken`),
    /// the device stays signed out until `account.signUp` / `signIn`.
    private func signUpIfNeeded() async {
        guard await session.needsSignUp else { return }
        do {
            let account = try await api.register(username: nil)
            await session.signedIn(as: account.user.username)
        } catch DeviceError.refused(let reason, _) where reason == "offline" || reason == "unreachable" {
            return
        } catch {
            await session.signedOut()
        }
    }

    // MARK: - Intents: tracking (iOS)

    func installAutomation(trigger: AutomationTrigger, askBeforeRunning: Bool) async throws -> ThePhoneState {
        try await ios().installAutomation(trigger: trigger, askBeforeRunning: askBeforeRunning)
        return try await state()
    }

    func removeAutomation(trigger: AutomationTrigger) async throws -> ThePhoneState {
        try await ios().removeAutomation(trigger: trigger)
        return try await state()
    }

    func beginSetup() async throws -> ThePhoneState {
        try await ios().beginSetup()
        return try await state()
    }

    /// `sync`: iOS syncs now and answers the dashboard; Android enqueues the seed's work
    /// (REPLACE), which runs at once, and answers `{"enqueued": "sync"}`. Offline ⇒ `offline`
    /// on both, nothing enqueued.
    func sync() async throws -> any Encodable & Sendable {
        try await requireSignedIn()
        await sendQueuedJoins()
        switch client {
        case .ios(let ios):
            try await ios.sync()
            return try await state()
        case .android(let android):
            guard try await platform.urlSession.isOnline() else {
                throw DeviceError.refused(reason: "offline", message: "the device is offline")
            }
            try await android.sync()
            return ["enqueued": ThePhoneKeys.syncWorkName]
        }
    }

    private func ios() throws -> ThePhoneiOSClient {
        guard case .ios(let ios) = client else {
            throw DeviceError.refused(reason: "notOnAndroid", message: "the Android client has no Shortcuts automation")
        }
        return ios
    }

    // MARK: - Intents: the account

    /// `account.signUp`: a new user, this device signed in to it.
    func signUp(username: String) async throws -> ThePhoneState {
        let account = try await api.register(username: username)
        await switchUser(to: account.user.username)
        return try await state()
    }

    /// `account.signIn`: this device joins an existing user (a second device of it).
    func signIn(username: String) async throws -> ThePhoneState {
        let account = try await api.login(username: username)
        await switchUser(to: account.user.username)
        return try await state()
    }

    /// A device that changes user forgets the previous one's events, sync point, groups and
    /// temptation settings (choice), then learns the new one's groups and (iOS) pulls its
    /// events. Signing in again as the same user keeps everything.
    private func switchUser(to username: String) async {
        let previous = await session.username
        await session.signedIn(as: username)
        guard previous != username else { return }
        await forgetUserData()
        if let groups = try? await api.groups() { self.groups = groups }
        if case .ios(let ios) = client { await ios.scheduleSync() }
    }

    private func forgetUserData() async {
        groups = []
        temptations = nil
        offline = OfflineGroups()
        switch client {
        case .ios(let ios): await ios.forgetUserData()
        case .android(let android): try? await android.forgetUserData()
        }
    }

    // MARK: - Intents: groups

    /// `group.create` → `{"groupId","code"}`; the creator is a member, role `admin`.
    func createGroup(name: String, description: String?, isPrivate: Bool?) async throws -> CreatedGroup {
        try await requireSignedIn()
        let created = try await api.createGroup(name: name, description: description, isPrivate: isPrivate)
        remember(GroupMembership(groupId: created.groupId, name: name, code: created.code, role: "admin"))
        return created
    }

    /// `group.join` by invite code or a public group's id → the membership. Offline it is queued
    /// (seed 001: "Join group — Queued, syncs when online"), behind any join queued before, and
    /// sent when the network returns (``sendQueuedJoins()``).
    func joinGroup(code: String?, groupId: String?) async throws -> JoinAnswer {
        try await requireSignedIn()
        let join: OfflineGroups.Join = code.map(OfflineGroups.Join.code) ?? .groupId(groupId ?? "")
        await sendQueuedJoins()
        guard offline.queuedJoins.isEmpty else { return queue(join) }
        do {
            let membership = try await send(join)
            remember(membership)
            return .joined(membership)
        } catch DeviceError.refused(let reason, _) where reason == "offline" {
            return queue(join)
        }
    }

    private func queue(_ join: OfflineGroups.Join) -> JoinAnswer {
        if !offline.queuedJoins.contains(join) { offline.queuedJoins.append(join) }
        return .queued(join)
    }

    private func send(_ join: OfflineGroups.Join) async throws -> GroupMembership {
        switch join {
        case .code(let code): try await api.redeem(code: code)
        case .groupId(let groupId): try await api.join(groupId: groupId)
        }
    }

    /// Sends the queued joins in order: stops at the first the device still cannot send
    /// (offline, no server), keeps a refused one in the dashboard's `refusedJoins`. One pass at a
    /// time; a join queued meanwhile is sent by the pass running.
    private func sendQueuedJoins() async {
        guard !sendingQueuedJoins, !offline.queuedJoins.isEmpty else { return }
        sendingQueuedJoins = true
        defer { sendingQueuedJoins = false }
        while let join = offline.queuedJoins.first {
            do {
                remember(try await send(join))
            } catch DeviceError.refused(let reason, _) where reason == "offline" || reason == "unreachable" {
                return
            } catch DeviceError.refused(let reason, _) {
                offline.refusedJoins.append(OfflineGroups.RefusedJoin(join: join, reason: reason))
            } catch {
                offline.refusedJoins.append(OfflineGroups.RefusedJoin(join: join, reason: "\(error)"))
            }
            // A change of user meanwhile cleared the queue: nothing of it is left to drop.
            if offline.queuedJoins.first == join { offline.queuedJoins.removeFirst() }
        }
    }

    func leaveGroup(groupId: String) async throws -> ThePhoneState {
        try await requireSignedIn()
        try await api.leave(groupId: groupId)
        groups.removeAll { $0.groupId == groupId }
        offline.leaderboards[groupId] = nil
        return try await state()
    }

    /// `group.leaderboard`: the seed's endpoint, asked by this device. Offline, the last one
    /// fetched, marked stale with the time it was fetched (seed 001: "Leaderboards — Stale, shows
    /// cached data with timestamp"); offline with none fetched, `offline`.
    func leaderboard(groupId: String) async throws -> LeaderboardAnswer {
        try await requireSignedIn()
        do {
            let entries = try await api.leaderboard(groupId: groupId)
            offline.leaderboards[groupId] = OfflineGroups.CachedLeaderboard(entries: entries, fetchedAt: platform.currentTimeMillis)
            return .fresh(entries)
        } catch DeviceError.refused(let reason, let message) where reason == "offline" {
            guard let cached = offline.leaderboards[groupId] else {
                throw DeviceError.refused(reason: reason, message: "\(message); no leaderboard of this group was fetched before")
            }
            return .stale(entries: cached.entries, fetchedAt: Self.iso(cached.fetchedAt))
        }
    }

    private func remember(_ membership: GroupMembership) {
        if let index = groups.firstIndex(where: { $0.groupId == membership.groupId }) {
            groups[index] = membership
        } else {
            groups.append(membership)
        }
    }

    // MARK: - Intents: temptations and privacy

    /// `setTemptations`: writes the server's settings row; `off` is `enabled: false` (the row
    /// keeps intensity `medium`, the seed's default).
    func setTemptations(_ preferences: TemptationPreferences) async throws -> ThePhoneState {
        try await requireSignedIn()
        let level = preferences.intensity == "off" ? "medium" : preferences.intensity
        try await api.updateTemptationSettings(
            TemptationSettingsUpdate(
                enabled: preferences.enabled, intensity: level, quietStart: preferences.quietHours?.start,
                quietEnd: preferences.quietHours?.end))
        temptations = preferences
        return try await state()
    }

    /// `data.export`: the seed's `exportUserData`, as the server wrote it.
    func exportData() async throws -> JSONBody {
        try await requireSignedIn()
        return try await api.exportUserData()
    }

    /// `data.delete`: the seed's `deleteUserData` → `{"success":true}`; the device is then signed
    /// out and its local data cleared (choice). A group's creator is refused, as the seed's
    /// foreign key refuses them (`groupCreator`), with a message saying why and what would free
    /// the account (docs/apps/thephone.md, `data.delete`).
    func deleteData() async throws -> DeleteResponse {
        try await requireSignedIn()
        let answer: DeleteResponse
        do {
            answer = try await api.deleteUser()
        } catch DeviceError.refused(let reason, _) where reason == "groupCreator" {
            throw DeviceError.refused(reason: reason, message: groupCreatorMessage())
        }
        await session.signedOut()
        await forgetUserData()
        return answer
    }

    /// Why a group's creator cannot delete their data, naming the groups this device knows they
    /// created: leaving a group does not help (the group keeps its `creator_id`); only deleting the
    /// group would, which the seed's admin route `DELETE /groups/:id` does and this port does not offer.
    private func groupCreatorMessage() -> String {
        let created = groups.filter { $0.role == "admin" }.map { "\($0.name) (\($0.groupId))" }
        let which = created.isEmpty ? "a group" : created.joined(separator: ", ")
        return "nothing was deleted: this user created \(which), and the server keeps a group's creator "
            + "(groups.creator_id has no ON DELETE). Leaving the group does not release it; the group must be "
            + "deleted first (the seed's DELETE /groups/:id, not offered by this port)"
    }

    private func requireSignedIn() async throws {
        guard await session.username != nil else {
            throw DeviceError.refused(reason: "notSignedIn", message: "no user is signed in on this device (account.signUp, account.signIn)")
        }
    }

    // MARK: - The dashboard

    func state() async throws -> ThePhoneState {
        let now = platform.currentTimeMillis
        let zone = platform.calendar.timeZone
        switch client {
        case .ios(let ios):
            let events = await ios.events()
            let setup = await ios.setupManager.state
            let health = await ios.health
            return ThePhoneState(
                user: await session.username,
                automations: try await ios.automations().map {
                    ThePhoneState.AutomationView(trigger: $0.trigger.rawValue, askBeforeRunning: $0.askBeforeRunning)
                },
                setup: ThePhoneState.Setup(state: setup.name, reason: setup.reason?.rawValue, verifiedAt: setup.verifiedAt.map(Self.iso)),
                trackingHealth: health.map {
                    ThePhoneState.TrackingHealth(
                        healthy: $0.isHealthy, issue: $0.issue?.name, hoursSinceLastUnlock: $0.issue?.hoursSinceLastUnlock,
                        lastCheck: Self.iso($0.lastCheck))
                },
                lastUnlockAt: events.filter { $0.eventType == .unlock }.map(\.timestamp).max().map(Self.iso),
                events: events.count, unsynced: events.filter { !$0.synced }.count,
                lastSync: await ios.lastSync().map(Self.iso),
                week: WeeklyScore.currentWeek(of: events.map(\.scored), now: now, timeZone: zone),
                groups: groups, temptations: temptations, offline: offline)
        case .android(let android):
            let rows = await android.rows()
            return ThePhoneState(
                user: await session.username, automations: nil, setup: nil, trackingHealth: nil,
                lastUnlockAt: rows.filter { $0.eventType == EventType.unlock.rawValue }.map(\.timestamp).max().map(Self.iso),
                events: rows.count, unsynced: rows.filter { !$0.synced }.count,
                lastSync: await android.lastSync().map(Self.iso),
                week: WeeklyScore.currentWeek(of: rows.compactMap(\.scored), now: now, timeZone: zone),
                groups: groups, temptations: temptations, offline: offline)
        }
    }

    /// ISO-8601 UTC of a time in ms since 1970.
    static func iso(_ milliseconds: Int64) -> String {
        DeviceCalendar.isoString(Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    // MARK: - Persistence (the app's own data: its Core Data / Room store and preferences)

    /// Everything the app keeps, as one JSON value (sorted keys: the same bytes every run).
    struct Saved: Codable, Sendable, Equatable {
        let session: Session.Saved
        let groups: [GroupMembership]
        let temptations: TemptationPreferences?
        /// Absent in a snapshot from before joins were queued: none.
        let offline: OfflineGroups?
        let ios: ThePhoneiOSClient.Saved?
        let android: ThePhoneAndroidClient.Saved?
    }

    func persistentData() async throws -> Data {
        var ios: ThePhoneiOSClient.Saved?
        var android: ThePhoneAndroidClient.Saved?
        switch client {
        case .ios(let client): ios = await client.saved()
        case .android(let client): android = await client.saved()
        }
        return try PersistentData.encode(
            Saved(session: await session.saved, groups: groups, temptations: temptations, offline: offline, ios: ios, android: android))
    }

    func restore(from data: Data) async throws {
        let saved = try JSONDecoder().decode(Saved.self, from: data)
        await session.restore(saved.session)
        groups = saved.groups
        temptations = saved.temptations
        offline = saved.offline ?? OfflineGroups()
        switch client {
        case .ios(let client): if let ios = saved.ios { await client.restore(ios) }
        case .android(let client): if let android = saved.android { await client.restore(android) }
        }
    }
}
