/// The Phone's dashboard (`device.state.app`, docs/apps/thephone.md#devicestateapp; on Android
/// without `automations` and `setup`, docs/apps/thephone.md#the-android-client). Times are ISO-8601
/// UTC; a field shown there as "or null" is always present.
struct ThePhoneState: Codable, Sendable, Equatable {
    /// One personal automation (`[{"trigger","askBeforeRunning"}]`).
    struct AutomationView: Codable, Sendable, Equatable {
        let trigger: String
        let askBeforeRunning: Bool
    }

    /// `{"state","reason"?,"verifiedAt"?}`: the seed's `SetupState` case names.
    struct Setup: Codable, Sendable, Equatable {
        let state: String
        let reason: String?
        let verifiedAt: String?
    }

    /// `{"healthy","issue","hoursSinceLastUnlock"?,"lastCheck"}`: `issue` null or the seed's
    /// `HealthIssue` case name.
    struct TrackingHealth: Codable, Sendable, Equatable {
        let healthy: Bool
        let issue: String?
        let hoursSinceLastUnlock: Int?
        let lastCheck: String

        private enum CodingKeys: String, CodingKey { case healthy, issue, hoursSinceLastUnlock, lastCheck }

        init(healthy: Bool, issue: String?, hoursSinceLastUnlock: Int?, lastCheck: String) {
            self.healthy = healthy
            self.issue = issue
            self.hoursSinceLastUnlock = hoursSinceLastUnlock
            self.lastCheck = lastCheck
        }

        func encode(to encoder: any Encoder) throws {
            var values = encoder.container(keyedBy: CodingKeys.self)
            try values.encode(healthy, forKey: .healthy)
            try values.encode(issue, forKey: .issue)
            try values.encodeIfPresent(hoursSinceLastUnlock, forKey: .hoursSinceLastUnlock)
            try values.encode(lastCheck, forKey: .lastCheck)
        }
    }

    /// The username, null when signed out.
    let user: String?
    /// iOS only.
    let automations: [AutomationView]?
    /// iOS only.
    let setup: Setup?
    /// The last check (iOS), null before it; always null on Android (the seed's Android client
    /// has no health monitor).
    let trackingHealth: TrackingHealth?
    let lastUnlockAt: String?
    /// Local events, own and pulled.
    let events: Int
    /// Local events not yet confirmed by the server.
    let unsynced: Int
    let lastSync: String?
    let week: WeeklyScore
    let groups: [GroupMembership]
    let temptations: TemptationPreferences?
    /// `group.join`s queued offline, oldest first; absent when there are none.
    let queuedJoins: [OfflineGroups.Join]?
    /// Queued joins the server refused when sent; absent when there are none.
    let refusedJoins: [OfflineGroups.RefusedJoin]?

    private enum CodingKeys: String, CodingKey {
        case user, automations, setup, trackingHealth, lastUnlockAt, events, unsynced, lastSync, week, groups, temptations
        case queuedJoins, refusedJoins
    }

    init(
        user: String?, automations: [AutomationView]?, setup: Setup?, trackingHealth: TrackingHealth?, lastUnlockAt: String?,
        events: Int, unsynced: Int, lastSync: String?, week: WeeklyScore, groups: [GroupMembership],
        temptations: TemptationPreferences?, offline: OfflineGroups
    ) {
        self.user = user
        self.automations = automations
        self.setup = setup
        self.trackingHealth = trackingHealth
        self.lastUnlockAt = lastUnlockAt
        self.events = events
        self.unsynced = unsynced
        self.lastSync = lastSync
        self.week = week
        self.groups = groups
        self.temptations = temptations
        queuedJoins = offline.queuedJoins.isEmpty ? nil : offline.queuedJoins
        refusedJoins = offline.refusedJoins.isEmpty ? nil : offline.refusedJoins
    }

    func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(user, forKey: .user)
        try values.encodeIfPresent(automations, forKey: .automations)
        try values.encodeIfPresent(setup, forKey: .setup)
        try values.encode(trackingHealth, forKey: .trackingHealth)
        try values.encode(lastUnlockAt, forKey: .lastUnlockAt)
        try values.encode(events, forKey: .events)
        try values.encode(unsynced, forKey: .unsynced)
        try values.encode(lastSync, forKey: .lastSync)
        try values.encode(week, forKey: .week)
        try values.encode(groups, forKey: .groups)
        try values.encode(temptations, forKey: .temptations)
        try values.encodeIfPresent(queuedJoins, forKey: .queuedJoins)
        try values.encodeIfPresent(refusedJoins, forKey: .refusedJoins)
    }
}
