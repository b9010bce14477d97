import Foundation

/// The seed's temptations ("Temptation Notifications"): `PUT /temptations/settings`,
/// `processTemptations` (every 5 minutes) and `scheduleTemptation`.
extension PhoneBackend {
    /// Writes the user's `temptation_settings` row (`setTemptations`, docs/apps/thephone.md,
    /// "Intents"); quiet-hour bounds are `HH:MM` or nil (`invalidQuietHours` otherwise).
    public mutating func updateTemptationSettings(
        username: String, enabled: Bool, intensity: TemptationSettings.Intensity, quietStart: String?, quietEnd: String?,
        now: Int64
    ) throws(PhoneBackendError) {
        let user = try requireUser(username)
        for bound in [quietStart, quietEnd].compactMap(\.self) where TemptationSettings.minutes(bound) == nil {
            throw .invalidQuietHours
        }
        temptationSettings[user.id] = TemptationSettings(
            enabled: enabled, intensity: intensity, quietStart: quietStart, quietEnd: quietEnd, updatedAt: now)
    }

    /// The user's `temptation_settings` row, nil if never written.
    public func temptationSettings(of username: String) throws(PhoneBackendError) -> TemptationSettings? {
        temptationSettings[try requireUser(username).id]
    }

    /// The seed's `processTemptations` at `now`: every user with settings enabled, tracking
    /// `verified` and a lock as their latest event, whose next temptation is not still ahead
    /// (the Redis key `next_temptation:<id>` expires at its time), is tempted by
    /// `scheduleTemptation`; users in username order (the seed's query has no order), which is
    /// the order of the random draws. Returns what was sent.
    public mutating func processTemptations(now: Int64) -> [Temptation] {
        nextTemptation = nextTemptation.filter { $0.value > now }
        let eligible = allUsers.filter { user in
            temptationSettings[user.id]?.enabled == true && user.trackingStatus == .verified
                && lastEvent(userId: user.id)?.eventType == .lock && nextTemptation[user.id] == nil
        }
        return eligible.compactMap { scheduleTemptation(user: $0, now: now) }
    }

    /// The seed's `scheduleTemptation`: nothing outside active hours or in the first 5 minutes of
    /// the streak (and then no next one is set, so the next run tries again); otherwise a kind by
    /// the streak's length, a template at random, its placeholders (`{count}`: friends' recent
    /// unlocks — no follows are simulated, so always 1 to 5 at random), and the next temptation
    /// `(60 / frequency) min × (0.5 + random)` later.
    mutating func scheduleTemptation(user: PhoneUser, now: Int64) -> Temptation? {
        guard let config = temptationSettings[user.id], isWithinActiveHours(config, timezone: user.timezone, now: now),
            let lastEvent = lastEvent(userId: user.id), lastEvent.eventType == .lock
        else { return nil }
        let streakMinutes = Double(now - lastEvent.timestamp) / 60_000
        if streakMinutes < Temptations.settleMinutes {
            return nil
        }
        let kind = Temptations.selectNotificationType(streakMinutes: streakMinutes) { random.mathRandom() }
        let template = kind.templates[random.index(below: kind.templates.count)]
        let body = Temptations.fill(template, streakMinutes: streakMinutes) { random.index(below: 5) + 1 }
        let nextDelay = (60 / config.intensity.frequency) * 60 * 1000 * (0.5 + random.mathRandom())
        nextTemptation[user.id] = now + Int64(nextDelay.rounded(.up))
        return Temptation(username: user.username, devices: user.devices, kind: kind, body: body, at: now)
    }

    /// The seed's `getLastEvent` / `ORDER BY timestamp DESC LIMIT 1` (equal timestamps: the
    /// last stored).
    func lastEvent(userId: String) -> PhoneEvent? {
        Self.byTimestamp(events[userId]?.rows ?? []).last
    }

    /// The seed's `isWithinActiveHours` at `now` in the user's time zone.
    func isWithinActiveHours(_ config: TemptationSettings, timezone: String, now: Int64) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timezone) ?? .gmt
        let time = calendar.dateComponents([.hour, .minute], from: Timestamps.date(now))
        return Temptations.isWithinActiveHours(
            localMinutes: (time.hour ?? 0) * 60 + (time.minute ?? 0), quietStart: config.quietStart.flatMap(TemptationSettings.minutes),
            quietEnd: config.quietEnd.flatMap(TemptationSettings.minutes))
    }
}
