import SimulatediOS

/// Progressive friction setup (docs/apps/clarity.md): the user's shielded selection and the
/// daily `clarity_friction` activity whose events are the five layers.
extension ClarityMainApp {
    /// `selectApps`: saves `shieldedAppsSelection` and (re)starts friction monitoring: a daily
    /// interval (00:00:00–23:59:59, repeating) with one event per layer at the configured
    /// minutes of the day's usage of the selection. An empty selection stops monitoring. The
    /// free tier shields 1 app (task 9e).
    func selectApps(_ apps: [String], categories: [String]) async throws -> SelectionResult {
        let selection = FamilyActivitySelectionData(
            applicationTokens: Array(Set(apps)).sorted(), categoryTokens: Array(Set(categories)).sorted())
        if selection.applicationTokens.count + selection.categoryTokens.count > 1, !isEntitled {
            throw DeviceError.refused(reason: "subscriptionRequired", message: "the free tier shields 1 app")
        }
        let center = platform.deviceActivityCenter
        try await center.stopMonitoring([ClarityKeys.frictionActivity])
        if selection.applicationTokens.isEmpty, selection.categoryTokens.isEmpty {
            try await sharedDefaults.removeObject(forKey: ClarityKeys.shieldedAppsSelection)
            try await platform.managedSettingsStore(named: ClarityKeys.frictionStore).clearAllSettings()
            try await evaluateGate()
            return SelectionResult(apps: [], categories: [], monitoring: false)
        }
        try await sharedDefaults.set(.data(selection.encoded), forKey: ClarityKeys.shieldedAppsSelection)
        var events: [String: DeviceActivityEvent] = [:]
        for (index, minutes) in thresholdsMinutes.enumerated() {
            events[ClarityKeys.frictionEvent(layer: index + 1)] = DeviceActivityEvent(
                applications: Set(selection.applicationTokens), categories: Set(selection.categoryTokens),
                threshold: DateComponentsSpec(minute: minutes))
        }
        try await center.startMonitoring(
            ClarityKeys.frictionActivity,
            during: DeviceActivitySchedule(
                intervalStart: DateComponentsSpec(hour: 0, minute: 0, second: 0),
                intervalEnd: DateComponentsSpec(hour: 23, minute: 59, second: 59), repeats: true),
            events: events)
        try await evaluateGate()
        return SelectionResult(apps: selection.applicationTokens, categories: selection.categoryTokens, monitoring: true)
    }

    /// What `selectApps` answers.
    struct SelectionResult: Encodable, Sendable {
        let apps: [String]
        let categories: [String]
        let monitoring: Bool
    }

    /// `logMood`: a mood check-in (1–5, checked by the intent).
    func logMood(_ mood: Int) throws -> MoodEntry {
        let entry = MoodEntry(id: newID(), timestamp: now, mood: mood)
        store.moodEntries.append(entry)
        changed()
        return entry
    }
}
