import ExtensionSandbox

/// Clarity's main app (seed 000): the user's actions (intents) and what the app shows.
actor ClarityMainApp: WorldActor {
    nonisolated let executor: WorldActorExecutor
    private let platform: Platform
    private let thresholdsMinutes: [Int]

    init(executor: WorldActorExecutor, platform: Platform, thresholdsMinutes: [Int]) {
        self.executor = executor
        self.platform = platform
        self.thresholdsMinutes = thresholdsMinutes
    }

    private var sharedDefaults: AppGroupDefaults { platform.userDefaults(suiteName: ClarityKeys.appGroup) }

    /// The apps and categories the user chose to shield, and whether friction is monitored.
    struct SelectionResult: Encodable, Sendable {
        let apps: [String]
        let categories: [String]
        let monitoring: Bool
    }

    /// `selectApps`: saves `shieldedAppsSelection` and (re)starts friction monitoring: a daily
    /// interval (00:00:00–23:59:59, repeating) with one event per layer at the configured
    /// minutes of the day's usage of the selection. An empty selection stops monitoring.
    func selectApps(_ apps: [String], categories: [String]) async throws -> SelectionResult {
        let selection = FamilyActivitySelectionData(
            applicationTokens: Array(Set(apps)).sorted(), categoryTokens: Array(Set(categories)).sorted())
        let center = platform.deviceActivityCenter
        try await center.stopMonitoring([ClarityKeys.frictionActivity])
        if selection.applicationTokens.isEmpty, selection.categoryTokens.isEmpty {
            try await sharedDefaults.removeObject(forKey: ClarityKeys.shieldedAppsSelection)
            try await platform.managedSettingsStore(named: ClarityKeys.frictionStore).clearAllSettings()
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
        return SelectionResult(apps: selection.applicationTokens, categories: selection.categoryTokens, monitoring: true)
    }

    /// What `device.state.app` shows for Clarity.
    struct State: Encodable, Sendable {
        let frictionLevel: Int
        let shieldedApps: [String]
        let shieldedCategories: [String]
        let monitoring: Bool
    }

    func state() async throws -> State {
        let selection = FamilyActivitySelectionData.decode(
            try await sharedDefaults.data(forKey: ClarityKeys.shieldedAppsSelection))
        return State(
            frictionLevel: try await sharedDefaults.integer(forKey: ClarityKeys.frictionLevel),
            shieldedApps: selection?.applicationTokens ?? [], shieldedCategories: selection?.categoryTokens ?? [],
            monitoring: try await platform.deviceActivityCenter.activities().contains(ClarityKeys.frictionActivity))
    }
}
