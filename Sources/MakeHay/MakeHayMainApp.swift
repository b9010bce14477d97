import Foundation
import SimulatediOS

/// Make Hay's main app (seed 003): the health gate. It reads HealthKit, decides, and writes the
/// shields itself (no extensions, Story 5: "a private `ManagedSettingsStore` instance").
///
/// Evaluation (Stories 6–8; docs/apps/makehay.md, "The gate"): `checkForNewDay()`, then one
/// statistics query for the goal's kind; below the goal ⇒ the selection shielded, at or above ⇒
/// unshielded. A failed query leaves the shields as they were (Story 8's fail-safe). It runs when
/// the app becomes active, when an observer query fires, and after `selectApps` / `setGoal`
/// (project choice: the user is in the app). Nothing happens at midnight itself: the first
/// evaluation after it finds today's value low and blocks again (Story 7).
actor MakeHayMainApp: WorldActor {
    nonisolated let executor: WorldActorExecutor
    let platform: Platform
    /// Bumped when ``blocked`` or ``lastEvaluation`` changes (they are in the snapshot).
    nonisolated let dataRevision = DataRevision()
    /// The last successful evaluation's decision, or the debug toggle's.
    private var blocked = false {
        didSet { if blocked != oldValue { dataRevision.bump() } }
    }
    private var lastEvaluation: Evaluation? {
        didSet { if lastEvaluation != oldValue { dataRevision.bump() } }
    }

    init(executor: WorldActorExecutor, platform: Platform) {
        self.executor = executor
        self.platform = platform
    }

    private var defaults: AppGroupDefaults { platform.userDefaults(suiteName: MakeHayKeys.appGroup) }
    /// Story 5: "a private `ManagedSettingsStore` instance" — the unnamed store.
    private var store: ManagedSettingsStore { platform.managedSettingsStore() }

    // MARK: - Lifecycle

    /// Launch (seed 003, Story 8: `startMonitoring()` from `AppDependencyContainer.init()`,
    /// "because observer queries and `enableBackgroundDelivery` registrations do not persist
    /// across app terminations"): read access, then an observer query and hourly background
    /// delivery for each of `stepCount`, `activeEnergyBurned`, `appleExerciseTime`.
    func launch() async throws {
        let health = platform.healthStore
        try await health.requestAuthorization(read: Set(HealthQuantityType.allCases))
        for kind in HealthQuantityType.allCases {
            try await health.executeObserverQuery(kind) { [weak self] in try await self?.evaluate(.observer) }
            try await health.enableBackgroundDelivery(for: kind)
        }
    }

    /// Story 6: "the gate is checked every time the app is foregrounded".
    func didBecomeActive() async throws {
        try await evaluate(.appActive)
    }

    // MARK: - The gate

    /// Story 7 `checkForNewDay()`, then Story 6 `checkGoalStatus()` with Story 8's fail-safe.
    func evaluate(_ trigger: Evaluation.Trigger) async throws {
        try await checkForNewDay()
        let goal = try await goal()
        let now = platform.now
        let value: Double
        do {
            value = try await platform.healthStore.sumToday(goal.kind)
        } catch is HealthQueryFailed {
            lastEvaluation = Evaluation(
                t: now.seconds, time: platform.calendar.isoString(now), trigger: trigger, outcome: .failed, value: nil)
            return
        }
        let block = value < Double(goal.target)
        try await updateShields(shouldBlock: block)
        blocked = block
        lastEvaluation = Evaluation(
            t: now.seconds, time: platform.calendar.isoString(now), trigger: trigger,
            outcome: block ? .blocked : .unblocked, value: value)
    }

    /// Story 7: `lastCheckedDate` (ISO `YYYY-MM-DD`, the device's local day) set to today when it
    /// differs; today's low value then re-engages the block by itself.
    private func checkForNewDay() async throws {
        let today = platform.calendar.dayKey(platform.now)
        guard try await defaults.string(forKey: MakeHayKeys.lastCheckedDate) != today else { return }
        try await defaults.set(.string(today), forKey: MakeHayKeys.lastCheckedDate)
    }

    /// Story 5 `updateShields(shouldBlock:)`: the saved selection shielded, or the store cleared.
    private func updateShields(shouldBlock: Bool) async throws {
        guard shouldBlock else { return try await store.clearAllSettings() }
        let (apps, categories) = try await selection()
        try await store.setShield(
            applications: Set(apps), categories: categories.isEmpty ? .none : .specific(Set(categories), except: []))
    }

    // MARK: - Intents

    func selectApps(_ apps: [String], categories: [String]) async throws -> MakeHayState {
        try await defaults.set(
            .dictionary(["apps": .array(apps.map(StoredValue.string)), "categories": .array(categories.map(StoredValue.string))]),
            forKey: MakeHayKeys.selection)
        try await evaluate(.intent)
        return try await state()
    }

    /// The goal in the App Group (`healthGoal`), and a step goal in `dailyStepGoal` too (the
    /// seed's `@AppStorage` key).
    func setGoal(_ goal: HealthGoal) async throws -> MakeHayState {
        try await defaults.set(.data(try goal.encoded()), forKey: MakeHayKeys.healthGoal)
        if goal.kind == .steps { try await defaults.set(.int(goal.target), forKey: MakeHayKeys.dailyStepGoal) }
        try await evaluate(.intent)
        return try await state()
    }

    /// Story 5's "Force Block Apps" toggle: the shields set directly, no evaluation.
    func forceBlock(_ enabled: Bool) async throws -> MakeHayState {
        try await updateShields(shouldBlock: enabled)
        blocked = enabled
        return try await state()
    }

    // MARK: - Reads

    private func goal() async throws -> HealthGoal {
        guard let data = try await defaults.data(forKey: MakeHayKeys.healthGoal),
            let goal = try? JSONDecoder().decode(HealthGoal.self, from: data)
        else { return .standard }
        return goal
    }

    private func selection() async throws -> (apps: [String], categories: [String]) {
        guard case .dictionary(let saved)? = try await defaults.object(forKey: MakeHayKeys.selection) else { return ([], []) }
        func names(_ key: String) -> [String] {
            guard case .array(let items)? = saved[key] else { return [] }
            return items.compactMap(\.stringValue)
        }
        return (names("apps"), names("categories"))
    }

    func state() async throws -> MakeHayState {
        let today = await platform.healthStore.recordedToday()
        return MakeHayState(
            goal: try await goal(),
            today: MakeHayState.Today(
                steps: today[.steps] ?? 0, activeEnergy: today[.activeEnergy] ?? 0,
                exerciseMinutes: today[.exerciseMinutes] ?? 0),
            blocked: blocked, lastEvaluation: lastEvaluation,
            lastCheckedDate: try await defaults.string(forKey: MakeHayKeys.lastCheckedDate),
            inMemory: platform.mainAppIsInMemory, selectedApps: try await selection().apps)
    }

    // MARK: - Persistence (the view model's memory, in the device's snapshot)

    func persistentData() throws -> Data {
        try PersistentData.encode(Memory(blocked: blocked, lastEvaluation: lastEvaluation))
    }

    func restore(from data: Data) throws {
        let memory = try JSONDecoder().decode(Memory.self, from: data)
        blocked = memory.blocked
        lastEvaluation = memory.lastEvaluation
    }

    private struct Memory: Codable {
        let blocked: Bool
        let lastEvaluation: Evaluation?
    }
}
