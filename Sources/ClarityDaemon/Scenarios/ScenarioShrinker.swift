import DeviceActors
import ExtensionSandbox
import JSONValues
import ScenarioFiles

/// Shrinks a failing scenario file: drops the steps, and the branches of its `parallel` steps,
/// that its failure does not need (delta debugging over the file's `steps`, then each branch),
/// keeping the same failure — the same step (renumbered as steps go), invariant and `kind`
/// (docs/scenarios.md, "Shrinking the scenario").
///
/// A candidate is the file without some steps, a scenario document like any other. It is run
/// with the failure's shrunk schedule; a schedule whose decisions no longer fit (the replay
/// diverges) or that no longer fails is tried again as the non-preemptive schedule, then as PCT
/// with seeds 0 … ``seeds`` − 1. A candidate the daemon would refuse (no steps left) is not one.
/// At most `budget` runs.
struct ScenarioShrinker {
    let document: JSONValue
    let catalog: AppCatalog
    let failure: ScenarioFailureReason
    let schedule: RecordedSchedule
    let quirks: [String: Bool]
    var budget = 300
    let interruption: (@Sendable () -> Bool)?

    /// PCT seeds a candidate is searched with when the failure's schedule no longer fails it.
    static let seeds: UInt64 = 8

    /// The smaller scenario, or nil when no step or branch could go.
    func shrink() -> JSONValue? {
        guard case .object(var members) = document, let steps = members["steps"]?.arrayValue,
            let failing = Self.stepIndex(failure.step)
        else { return nil }
        var runs = 0
        /// Whether `candidate` (the original step indexes kept, in order) fails the same way.
        func stillFails(_ candidate: [(index: Int, step: JSONValue)]) -> Bool {
            guard runs < budget, interruption?() != true, let position = candidate.firstIndex(where: { $0.index == failing })
            else { return false }
            var trial = members
            trial["steps"] = .array(candidate.map(\.step))
            guard let scenario = try? ScenarioFile.scenario(from: .object(trial), catalog: catalog) else { return false }
            let renumbered = ScenarioFailureReason(
                message: failure.message, step: failure.step.map { Self.renumber($0, to: position) }, invariant: failure.invariant,
                kind: failure.kind)
            func fails(_ outcome: ScenarioOutcome) -> Bool {
                runs += 1
                return outcome.divergence == nil && outcome.failure?.isSameFailure(as: renumbered) == true
            }
            if fails(ScenarioRunner.run(scenario, replaying: schedule, quirks: quirks, interruption: interruption)) { return true }
            if fails(ScenarioRunner.run(scenario, replaying: .deviations([]), quirks: quirks, interruption: interruption)) {
                return true
            }
            let expected = ScenarioRunner.expectedDecisions(scenario, interruption: interruption)
            for seed in 0..<Self.seeds where runs < budget {
                let made = ScheduleSeed(strategy: .pct, seed: seed, depth: 3, expectedDecisions: expected)
                if fails(ScenarioRunner.run(scenario, seed: made, quirks: quirks, faults: scenario.faults, interruption: interruption)) {
                    return true
                }
            }
            return false
        }
        var best = DeltaDebugging.minimize(
            steps.enumerated().map { (index: $0.offset, step: $0.element) }, keeping: 1, keeps: stillFails,
            shouldStop: { runs >= budget || interruption?() == true })
        // Then each branch of a parallel step the failure is not in.
        for position in best.indices where best[position].index != failing {
            guard var branches = best[position].step["parallel"]?.arrayValue else { continue }
            var branch = 0
            while branch < branches.count, branches.count > 1, runs < budget {
                var fewer = branches
                fewer.remove(at: branch)
                var candidate = best
                candidate[position].step = .object(["parallel": .array(fewer)])
                if stillFails(candidate) {
                    best = candidate
                    branches = fewer
                } else {
                    branch += 1
                }
            }
        }
        guard best.map(\.step) != steps else { return nil }
        members["steps"] = .array(best.map(\.step))
        members["name"] = .string((document["name"]?.stringValue ?? "scenario") + "-shrunk")
        return .object(members)
    }

    /// `answer`, `scenario.explore`'s, with its first failure's `shrunkScenario` when the
    /// scenario shrinks.
    static func attach(
        to answer: JSONValue, report: ExplorationReport, document: JSONValue?, catalog: AppCatalog,
        interruption: @escaping @Sendable () -> Bool
    ) -> JSONValue {
        guard let first = report.failures.first, let document, case .success(let token) = ScheduleToken.parse(first.schedule),
            case .object(var members) = answer, var failures = members["failures"]?.arrayValue,
            case .object(var failure) = failures[0]
        else { return answer }
        let reason = ScenarioFailureReason(message: first.message, step: first.step, invariant: first.invariant, kind: first.kind)
        let shrinker = ScenarioShrinker(
            document: document, catalog: catalog, failure: reason,
            schedule: .deviations(token.deviations, faults: token.faults), quirks: first.quirks, interruption: interruption)
        guard let shrunk = shrinker.shrink() else { return answer }
        failure["shrunkScenario"] = shrunk
        failures[0] = .object(failure)
        members["failures"] = .array(failures)
        return .object(members)
    }

    /// `steps[10]` → 10; `steps[9].parallel[1][0]` → 9; nil for a failure at the end of the run.
    static func stepIndex(_ step: String?) -> Int? {
        guard let step, step.hasPrefix("steps[") else { return nil }
        return Int(step.dropFirst("steps[".count).prefix { $0.isNumber })
    }

    /// `steps[10].parallel[1][0]` with its step at `position`: `steps[3].parallel[1][0]`.
    static func renumber(_ step: String, to position: Int) -> String {
        guard let close = step.firstIndex(of: "]") else { return step }
        return "steps[\(position)" + step[close...]
    }
}
