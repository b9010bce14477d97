import SimulatediOS

/// 30-day auto-cleanup and daily snapshots (seed 000 task 8 `DataCleanupService`): focus
/// sessions, mood entries, challenges and connection logs go after 30 days, daily snapshots
/// after 90; at launch and by a daily background task (`earliestBeginDate` +24 h).
extension ClarityMainApp {
    static let cleanupInterval = 24 * 3600.0

    /// `scheduleCleanup`: the next run 24 hours from now.
    func scheduleCleanup() {
        setTimer("dataCleanup", after: Self.cleanupInterval) { [self] in try await self.handleCleanup() }
    }

    /// `handleCleanup` (the background task): record today's snapshot, clean up, schedule the next.
    private func handleCleanup() async throws {
        try await recordTodaySnapshot()
        try cleanupOnLaunch()
        scheduleCleanup()
    }

    /// `cleanupOnLaunch`: deletes what is past retention.
    func cleanupOnLaunch() throws {
        let day = 86_400.0
        let thirtyDaysAgo = now - Double(DataRetention.sessionDays) * day
        let ninetyDaysAgo = now - Double(DataRetention.snapshotDays) * day
        let before = historyCounts
        store.focusSessions.removeAll { $0.startTime < thirtyDaysAgo && $0.endTime != nil }
        store.moodEntries.removeAll { $0.timestamp < thirtyDaysAgo }
        store.challenges.removeAll { $0.issuedAt < now - Double(DataRetention.challengeDays) * day }
        store.connectionLogs.removeAll { $0.timestamp < now - Double(DataRetention.connectionLogDays) * day }
        store.snapshots.removeAll { $0.dayStart < ninetyDaysAgo }
        if store.profile.currentChallengeId != nil, store.currentChallenge == nil {
            store.profile.currentChallengeId = nil
            store.profile.verificationStatus = .idle
            store.profile.lastVerificationMessage = nil
            store.profile.challengePrompt = nil
        }
        if historyCounts != before { changed() }
    }

    /// How many of each model the store holds (`device.state.app.history`).
    struct HistoryCounts: Encodable, Sendable, Equatable {
        let challenges: Int
        let connectionLogs: Int
        let focusSessions: Int
        let moodEntries: Int
        let snapshots: Int
    }

    var historyCounts: HistoryCounts {
        HistoryCounts(
            challenges: store.challenges.count, connectionLogs: store.connectionLogs.count,
            focusSessions: store.focusSessions.count, moodEntries: store.moodEntries.count,
            snapshots: store.snapshots.count)
    }

    // MARK: - Stats (task 4b ConnectionStatsCard, 6b quick stats)

    /// Today's connections, minutes of conversation, minutes scrolling, focus minutes, XP.
    func todayStats() async throws -> DailySnapshot {
        let dayStart = platform.calendar.startOfDay(platform.now).seconds
        let logs = store.connectionLogs.filter { $0.timestamp >= dayStart }
        let focusMinutes = store.focusSessions.filter { $0.startTime >= dayStart }.reduce(0.0) {
            $0 + (($1.endTime ?? now) - $1.startTime) / 60
        }
        return DailySnapshot(
            date: platform.calendar.dayKey(platform.now), dayStart: dayStart,
            connections: logs.filter { $0.type != .callAttempted }.count,
            conversationMinutes: Double(logs.reduce(0) { $0 + $1.durationSeconds }) / 60,
            scrollingMinutes: try await scrollingSecondsToday() / 60, focusMinutes: focusMinutes,
            xpEarned: store.challenges.filter { ($0.verifiedAt ?? -1) >= dayStart }.reduce(0) { $0 + $1.xpEarned })
    }

    /// Usage today of the shielded selection, as `DeviceActivityReport` reports it.
    private func scrollingSecondsToday() async throws -> Double {
        let selection = FamilyActivitySelectionData.decode(
            try await sharedDefaults.data(forKey: ClarityKeys.shieldedAppsSelection))
        let apps = Set(selection?.applicationTokens ?? [])
        let categories = Set(selection?.categoryTokens ?? [])
        // In app order: a sum of doubles in dictionary order could differ from one run to the next.
        return try await platform.usageToday().sorted { $0.key < $1.key }.reduce(0) { total, entry in
            let counts =
                apps.contains(entry.key) || platform.catalog.category(of: entry.key).map(categories.contains) == true
            return total + (counts ? entry.value : 0)
        }
    }

    /// Records (or updates) today's snapshot.
    func recordTodaySnapshot() async throws {
        let today = try await todayStats()
        if let index = store.snapshots.firstIndex(where: { $0.date == today.date }) {
            guard store.snapshots[index] != today else { return }
            store.snapshots[index] = today
        } else {
            store.snapshots.append(today)
        }
        changed()
    }
}
