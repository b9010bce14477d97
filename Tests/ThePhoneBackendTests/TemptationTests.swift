import Testing

@testable import ThePhoneBackend

/// The seed's temptations ("Temptation Notifications"; docs/apps/thephone-backend.md, "Rules, with
/// their source").
@Suite struct TemptationTests {
    let ten = monday + 10 * hour

    /// Ann (UTC by default), verified, medium temptations, locked at 10:00.
    private func tempted(timezone: String = "UTC", quietStart: String? = nil, quietEnd: String? = nil) throws -> PhoneBackend {
        var backend = try PhoneBackend.with([("ann", timezone)])
        try backend.updateTrackingStatus(username: "ann", status: .verified)
        try backend.updateTemptationSettings(
            username: "ann", enabled: true, intensity: .medium, quietStart: quietStart, quietEnd: quietEnd, now: monday)
        try backend.sync("ann", [event(1, .lock, ten)], now: ten)
        return backend
    }

    @Test func aVerifiedUserInAStreakIsTemptedFromFiveMinutesThenAfterTheDelay() throws {
        var backend = try tempted()
        #expect(backend.processTemptations(now: ten + 5 * minute - 1).isEmpty)
        let sent = backend.processTemptations(now: ten + 5 * minute)
        let temptation = try #require(sent.first)
        #expect(sent.count == 1)
        #expect((temptation.username, temptation.devices, temptation.kind, temptation.at) == ("ann", ["ann"], .curiosity, ten + 5 * minute))
        #expect(Temptations.Kind.curiosity.templates.contains(temptation.body))
        let next = try #require(backend.nextTemptation.values.first)
        #expect(next >= ten + 5 * minute + 30 * minute && next < ten + 5 * minute + 90 * minute)
        #expect(backend.processTemptations(now: next - 1).isEmpty)
        #expect(backend.processTemptations(now: next).count == 1)
    }

    @Test func onlyEnabledVerifiedUsersWhoseLastEventIsALock() throws {
        var noRow = try PhoneBackend.with([("ann", "UTC")])
        try noRow.updateTrackingStatus(username: "ann", status: .verified)
        try noRow.sync("ann", [event(1, .lock, ten)], now: ten)
        #expect(noRow.processTemptations(now: ten + hour).isEmpty)

        var disabled = try tempted()
        try disabled.updateTemptationSettings(username: "ann", enabled: false, intensity: .high, quietStart: nil, quietEnd: nil, now: ten)
        #expect(disabled.processTemptations(now: ten + hour).isEmpty)

        var broken = try tempted()
        try broken.updateTrackingStatus(username: "ann", status: .broken)
        #expect(broken.processTemptations(now: ten + hour).isEmpty)

        var unlocked = try tempted()
        try unlocked.sync("ann", [event(2, .unlock, ten + 20 * minute)], now: ten + 20 * minute)
        #expect(unlocked.processTemptations(now: ten + hour).isEmpty)
    }

    /// Quiet hours 22:00–07:00 wrap midnight, in the user's zone (Tokyo: 10:00 UTC is 19:00).
    @Test func quietHoursInTheUsersTimeZone() throws {
        var backend = try tempted(timezone: "Asia/Tokyo", quietStart: "22:00", quietEnd: "07:00")
        #expect(backend.processTemptations(now: ten + 3 * hour).isEmpty)  // 22:00 in Tokyo
        #expect(backend.processTemptations(now: ten + 12 * hour - 1).isEmpty)  // 06:59:59
        #expect(backend.processTemptations(now: ten + 12 * hour).count == 1)  // 07:00
        #expect(Temptations.isWithinActiveHours(localMinutes: 12 * 60, quietStart: 12 * 60, quietEnd: 13 * 60) == false)
        #expect(Temptations.isWithinActiveHours(localMinutes: 13 * 60, quietStart: 12 * 60, quietEnd: 13 * 60))
        #expect(Temptations.isWithinActiveHours(localMinutes: 0, quietStart: nil, quietEnd: 13 * 60))
    }

    /// Seed's `selectNotificationType`, with its `Math.random()` given.
    @Test func kindsByStreakLength() {
        func kind(_ minutes: Double, _ draw: Double) -> Temptations.Kind {
            Temptations.selectNotificationType(streakMinutes: minutes) { draw }
        }
        #expect(Temptations.selectNotificationType(streakMinutes: 29.9) { Issue.record("no draw under 30 min"); return 0 } == .curiosity)
        #expect([kind(30, 0.49), kind(59, 0.5)] == [.curiosity, .fakeUrgency])
        #expect([kind(60, 0), kind(90, 0.34), kind(119, 0.99)] == [.fomo, .social, .fakeUrgency])
        #expect([kind(120, 0.29), kind(600, 0.3)] == [.taunt, .fomo])
    }

    @Test func placeholders() {
        let fomo = "You've been offline for {duration}. Miss anything?"
        #expect(Temptations.fill(fomo, streakMinutes: 125.9) { 0 } == "You've been offline for 2h 5m. Miss anything?")
        #expect(Temptations.fill(fomo, streakMinutes: 45.5) { 0 } == "You've been offline for 45 minutes. Miss anything?")
        let social = "{count} friends just checked their phones..."
        #expect(Temptations.fill(social, streakMinutes: 90) { 3 } == "3 friends just checked their phones...")
    }

    /// Next one `(60 / rate) min × (0.5 + random)` later: high 2/h, low 0.5/h.
    @Test func intensitySetsTheDelay() throws {
        for (intensity, low, high) in [(TemptationSettings.Intensity.high, 15 * minute, 45 * minute), (.low, hour, 3 * hour)] {
            var backend = try tempted()
            try backend.updateTemptationSettings(
                username: "ann", enabled: true, intensity: intensity, quietStart: nil, quietEnd: nil, now: ten)
            #expect(backend.processTemptations(now: ten + hour).count == 1)
            let delay = try #require(backend.nextTemptation.values.first) - (ten + hour)
            #expect(delay >= low && delay < high)
        }
    }

    @Test func theJobRunsEveryFiveMinutesOnTheBackendClock() throws {
        var backend = try tempted()
        #expect(backend.advanceClock(to: ten).map(\.at) == [monday + 3 * hour])
        let jobs = backend.advanceClock(to: ten + 12 * minute)
        #expect(jobs.map(\.at) == [ten + 5 * minute])
        var twin = try tempted()
        _ = twin.advanceClock(to: ten)
        #expect(twin.advanceClock(to: ten + 12 * minute) == jobs)
    }

    @Test func settingsAreValidatedAndDeletedWithTheUser() throws {
        var backend = try tempted()
        for bad in ["25:00", "7:00", "07:60", "0700"] {
            #expect(throws: PhoneBackendError.invalidQuietHours) {
                try backend.updateTemptationSettings(
                    username: "ann", enabled: true, intensity: .low, quietStart: bad, quietEnd: nil, now: ten)
            }
        }
        #expect(try backend.temptationSettings(of: "ann")?.intensity == .medium)
        _ = try backend.deleteUserData(username: "ann")
        #expect(backend.temptationSettings.isEmpty)
    }
}
