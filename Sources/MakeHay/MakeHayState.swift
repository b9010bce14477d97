/// Make Hay's dashboard (`device.state.app`, APPS.md §3.4).
struct MakeHayState: Codable, Sendable, Equatable {
    struct Today: Codable, Sendable, Equatable {
        let steps: Double
        let activeEnergy: Double
        let exerciseMinutes: Double
    }

    let goal: HealthGoal
    let today: Today
    /// The last successful evaluation's decision, or the debug toggle's.
    let blocked: Bool
    let lastEvaluation: Evaluation?
    let lastCheckedDate: String?
    let inMemory: Bool
    let selectedApps: [String]
}

/// One evaluation of the gate (seed 003, Story 6 `checkGoalStatus`, Story 8): when, why, what.
struct Evaluation: Codable, Sendable, Equatable {
    enum Trigger: String, Codable, Sendable { case appActive, observer, intent }
    enum Outcome: String, Codable, Sendable { case blocked, unblocked, failed }

    let t: Double
    let time: String
    let trigger: Trigger
    let outcome: Outcome
    /// The goal kind's value today; null when the query failed.
    let value: Double?
}
