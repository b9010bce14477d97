import Foundation
import SimulatediOS

/// The daily goal (seed 003, Story 2 `HealthGoal`, generalised to the three kinds the
/// background monitor tracks, Story 8): a kind and a target, 10,000 steps by default.
struct HealthGoal: Codable, Sendable, Equatable {
    var kind: HealthQuantityType
    var target: Int

    /// As stored under `healthGoal`: JSON with sorted keys (Foundation's encoder does not keep an
    /// order of its own on every platform, and the trace must be the same byte for byte).
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(self)
    }

    /// Seed 003, Story 2: `dailyStepTarget: Int = 10_000`.
    static let standard = HealthGoal(kind: .steps, target: 10_000)

    /// What `setGoal` accepts per kind: the seed's stepper of 500 for steps; the other kinds'
    /// steps and every range are project choices (docs/apps/makehay.md, "Intents").
    static func allowed(_ kind: HealthQuantityType) -> (step: Int, range: ClosedRange<Int>, unit: String) {
        switch kind {
        case .steps: (500, 500...100_000, "steps")
        case .activeEnergy: (10, 10...5_000, "kcal")
        case .exerciseMinutes: (5, 5...300, "minutes")
        }
    }
}
