import ExtensionSandbox
@_spi(Host) import SimulatediOS

/// Why a shrunk failing schedule keeps one of its deviations or faults: what the same schedule
/// without it does (issue 42: every preemption a story keeps is one the failure needs). A
/// story says it on the switch (`kept: without it the replay diverges at decision 24`), so a
/// free pick — a deviation that sets no process aside — is explained, not just listed.
///
/// The shrinker's rules decide what "needed" means (``ScheduleShrinker``): without it the
/// schedule passes, fails another way, cannot be replayed (the deviations after it meet other
/// ready tasks), or fails the same way only with more preemptions or a less plausible stall.
/// ``Without/sameFailure`` is none of these: a deviation the failure does not need.
public struct DeviationNeed: Sendable, Equatable {
    /// What is removed: a deviation (at its decision) or an injected fault.
    public enum Removed: Sendable, Equatable {
        case deviation(ScheduleDeviation)
        case fault(FaultSite)
    }

    /// What the schedule does without it.
    public enum Without: Sendable, Equatable {
        case passes
        case failsOtherwise(String)
        case diverges(String)
        case needsMorePreemptions(Int)
        case lessPlausible(SchedulePlausibility.Class)
        /// The same failure, as few preemptions, as plausible: not needed.
        case sameFailure

        /// What `run`, a replay of a candidate schedule, shows against the failure `reason`
        /// found with `preemptions` and `plausibility` (nil: any): the one rule by which
        /// ``ScheduleShrinker`` keeps a candidate (``sameFailure``) and a story says why a
        /// deviation stays (the others).
        init(_ run: ScenarioOutcome, against reason: ScenarioFailureReason, preemptions: Int, plausibility: SchedulePlausibility?) {
            if let divergence = run.divergence {
                self = .diverges(divergence)
            } else if let failure = run.failure {
                if !failure.isSameFailure(as: reason) {
                    self = .failsOtherwise(failure.message)
                } else if run.preemptions > preemptions {
                    self = .needsMorePreemptions(run.preemptions)
                } else if let plausibility, case let other = SchedulePlausibility(run), plausibility < other {
                    self = .lessPlausible(other.plausibility)
                } else {
                    self = .sameFailure
                }
            } else {
                self = .passes
            }
        }
    }

    public let removed: Removed
    public let without: Without

    /// Every deviation and fault of `outcome`, a failing schedule of `scenario`, each with what
    /// the schedule does without it: one replay each. Nil past `limit` of them (a FIFO schedule's
    /// turns: 80 replays to say what its turns already say).
    public static func needs(
        of outcome: ScenarioOutcome, scenario: Scenario, limit: Int = 20, interruption: (@Sendable () -> Bool)? = nil
    ) -> [DeviationNeed]? {
        guard let reason = outcome.failure else { return [] }
        let deviations = outcome.deviations
        let faults = outcome.faults
        guard deviations.count + faults.count <= limit else { return nil }
        let plausibility = SchedulePlausibility(outcome)
        func without(_ deviations: [ScheduleDeviation], _ faults: [FaultSite]) -> Without {
            let run = ScenarioRunner.run(
                scenario, replaying: .deviations(deviations, faults: faults), quirks: outcome.quirks, interruption: interruption)
            return Without(run, against: reason, preemptions: outcome.preemptions, plausibility: plausibility)
        }
        let byDeviation = deviations.indices.map { index in
            var fewer = deviations
            let removed = fewer.remove(at: index)
            return DeviationNeed(removed: .deviation(removed), without: without(fewer, faults))
        }
        let byFault = faults.indices.map { index in
            var fewer = faults
            let removed = fewer.remove(at: index)
            return DeviationNeed(removed: .fault(removed), without: without(deviations, fewer))
        }
        return byDeviation + byFault
    }

    /// `kept: without it the replay diverges at decision 24`.
    public var text: String {
        switch without {
        case .passes: "kept: without it the schedule passes"
        case .failsOtherwise(let message): "kept: without it the schedule fails another way (\(message.prefix(60)))"
        case .diverges(let why): "kept: without it the replay diverges" + Self.where(why)
        case .needsMorePreemptions(let count): "kept: without it the failure needs \(count) preemptions"
        case .lessPlausible(let plausibility): "kept: without it the failure is less plausible (\(plausibility.rawValue))"
        case .sameFailure: "not needed: the schedule fails the same way without it"
        }
    }

    /// ` at decision 24` from a divergence's `the replay diverged at decision 24: …`.
    private static func `where`(_ divergence: String) -> String {
        guard let range = divergence.range(of: " at decision ") else { return "" }
        return " at decision " + divergence[range.upperBound...].prefix { $0.isNumber }
    }
}
