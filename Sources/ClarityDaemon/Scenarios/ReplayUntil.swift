import ControlProtocol
import DeviceActors
import ExtensionSandbox

/// `scenario.replay`'s `until`: where the replay stops and leaves its device standing —
/// `{"decision": N}`, before decision N's pick (N = the run's decision count: at its end), or
/// `{"seq": N}`, at the first decision after trace event N (none after it: at the run's end).
enum ReplayUntil: Decodable, Sendable, Equatable {
    case decision(Int)
    case seq(Int)

    private enum Key: String, CodingKey, CaseIterable { case decision, seq }

    init(from decoder: any Decoder) throws {
        let reason = "{\"decision\": N} or {\"seq\": N}, N ≥ 0: one of them"
        guard let fields = try? decoder.container(keyedBy: Key.self) else {
            throw FieldError(field: "until", reason: reason)
        }
        let given = Key.allCases.filter(fields.contains)
        guard given.count == 1, let key = given.first else {
            throw FieldError(field: "until", reason: given.isEmpty ? reason : "give decision or seq, not both")
        }
        guard let number = try? fields.decode(Int.self, forKey: key), number >= 0 else {
            throw FieldError(field: "until.\(key.rawValue)", reason: "an integer ≥ 0")
        }
        self = key == .decision ? .decision(number) : .seq(number)
    }

    /// The decision of `outcome` (the whole replay) this stops at; nil: at the run's end. -32602
    /// `until.decision` / `until.seq` when it is past the run's end.
    func decision(in outcome: ScenarioOutcome) throws(RPCError) -> Int? {
        switch self {
        case .decision(let decision):
            guard decision <= outcome.decisions else {
                throw RPCError.invalidParams(
                    field: "until.decision",
                    reason: outcome.decisions == 0
                        ? "past the end: this run makes no decision (0 stops at its end)"
                        : "past the end: this run makes \(outcome.decisions) decisions (0 to \(outcome.decisions - 1); \(outcome.decisions) stops at its end)")
            }
            return decision == outcome.decisions ? nil : decision
        case .seq(let seq):
            let last = outcome.trace.last?.entry.sequence ?? 0
            guard seq <= last else {
                throw RPCError.invalidParams(field: "until.seq", reason: "past the end: this run's trace ends at seq \(last)")
            }
            return outcome.decisionLog.first { $0.position >= seq }?.index
        }
    }
}

/// Where a replay left its device (`stoppedAt` in `scenario.replay`'s answer).
struct ReplayStop: Encodable, Sendable {
    /// The decision it stopped before; nil at the run's end (`end: true`).
    let decision: Int?
    let end: Bool
    /// The device's last trace event, and its virtual time.
    let seq: Int
    let t: Double
    let time: String
    /// The tasks ready at the decision, held where they stood: they go on at the device's next
    /// event, intent or clock advance.
    let ready: [String]
}

/// One decision of a replay, told for `clarityctl replay --step` (`walk` in the answer).
struct ReplayWalkStep: Encodable, Sendable {
    let decision: Int
    /// The trace event it came after.
    let seq: Int
    /// Who runs, and what it is about to do.
    let runs: String
    /// Every task ready there, and what each was about to do.
    let ready: [String]
    /// Whether it switched away from a task that could have gone on.
    let preemption: Bool
    /// The story's line for it, when it is one of the story's switches.
    let story: String?

    /// Each decision of `outcome`.
    static func walk(_ outcome: ScenarioOutcome) -> [ReplayWalkStep] {
        let story = ScheduleStory.switches(of: outcome).map(\.label)
        return outcome.decisionLog.map { decision in
            let chosen = decision.candidates.first { $0.task == decision.chosen }
            let prefix = "⇄ decision \(decision.index):"
            return ReplayWalkStep(
                decision: decision.index, seq: decision.position,
                runs: chosen.map(describe) ?? "task \(decision.chosen)",
                ready: decision.candidates.map(describe), preemption: decision.isPreemption,
                story: story.first { $0.hasPrefix(prefix) })
        }
    }

    /// `wallet.monitor#1 (task 2): write group.com.example.wallet/requestsToday`.
    static func describe(_ candidate: Decision.Candidate) -> String {
        var text = candidate.process.map { "\($0) (task \(candidate.task))" } ?? "task \(candidate.task)"
        if let operation = candidate.operation { text += ": \(operation)" }
        return text
    }
}
