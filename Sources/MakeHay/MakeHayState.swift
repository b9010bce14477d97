/// Make Hay's dashboard (`device.state.app`, docs/apps/makehay.md#devicestateapp).
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
    /// The goal kind's value today; null when the query failed (written as `null`, never left
    /// out: docs/apps/makehay.md, `lastEvaluation`).
    let value: Double?

    private enum CodingKeys: String, CodingKey { case t, time, trigger, outcome, value }

    /// Synthesized, but for `value`, which is `null` when absent (the synthesized encoder
    /// would leave the key out).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(t, forKey: .t)
        try container.encode(time, forKey: .time)
        try container.encode(trigger, forKey: .trigger)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(value, forKey: .value)
    }
}
