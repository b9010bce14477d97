import ExtensionSandbox

/// How likely a schedule is on a real iPhone (docs/scenarios.md, "How likely a schedule is"):
/// each preemption sets a process aside that could have gone on, and it must stay paused while
/// the others perform what they perform before it runs again. That pause, the *stall*, is the
/// modelled cost of those operations (``OperationCost``). The virtual clock adds nothing: timers
/// fire only when no task is ready, so it never moves while a task is set aside.
public struct SchedulePlausibility: Sendable, Encodable, Comparable {
    /// The class, most plausible first.
    public enum Class: String, Sendable, Encodable, Comparable {
        /// Every preemption needs no longer a pause than one scheduler quantum
        /// (``OperationCost/quantumMicroseconds``), or there is none.
        case likely
        /// A preemption needs a process to pause longer than a quantum (a busy device, a
        /// page-in, a priority inversion): possible, not likely.
        case needsAStall = "needs a stall"
        /// The schedule injects a fault (a jetsam, a lost request…).
        case needsAFault = "needs a fault"

        private var rank: Int {
            switch self {
            case .likely: 0
            case .needsAStall: 1
            case .needsAFault: 2
            }
        }

        public static func < (lhs: Class, rhs: Class) -> Bool { lhs.rank < rhs.rank }
    }

    /// One preemption's stall: who was set aside at which decision, for how long, between what.
    public struct Stall: Sendable, Encodable, CustomStringConvertible {
        public let decision: Int
        public let process: String
        public let microseconds: Int
        /// The operation the process performed last before it was set aside, and the one it
        /// was about to perform (nil when not announced).
        public let after: String?
        public let before: String?
        /// How many operations the others performed meanwhile.
        public let meanwhile: Int
        /// Whether the stall fits in a scheduler quantum (``OperationCost/quantumMicroseconds``).
        public let likely: Bool
        /// ``description``, for JSON readers.
        public let text: String

        init(decision: Int, process: String, microseconds: Int, after: String?, before: String?, meanwhile: Int) {
            self.decision = decision
            self.process = process
            self.microseconds = microseconds
            self.after = after
            self.before = before
            self.meanwhile = meanwhile
            likely = microseconds <= OperationCost.quantumMicroseconds
            text = Self.sentence(process: process, microseconds: microseconds, after: after, before: before, decision: decision)
        }

        public var description: String { text }

        /// `needs wallet.shieldAction to pause ≥ 30 ms between two App Group calls`.
        private static func sentence(
            process: String, microseconds: Int, after: String?, before: String?, decision: Int
        ) -> String {
            let appGroup = [after, before].allSatisfy { $0.map(Self.isAppGroupCall) ?? false }
            let place =
                if appGroup { "between two App Group calls" } else if let after, let before {
                    "between \(after) and \(before)"
                } else if let before { "before \(before)" } else { "at decision \(decision)" }
            return "needs \(process) to pause ≥ \(duration(microseconds)) \(place)"
        }

        private static func isAppGroupCall(_ operation: String) -> Bool {
            operation.split(separator: " ").dropFirst().first?.hasPrefix("group.") == true
        }

        /// `20 µs`, `1 ms`, `1.03 ms`, `80 ms`.
        static func duration(_ microseconds: Int) -> String {
            guard microseconds >= 1_000 else { return "\(microseconds) µs" }
            let milliseconds = Double(microseconds) / 1_000
            return milliseconds.rounded() == milliseconds ? "\(Int(milliseconds)) ms" : "\(milliseconds) ms"
        }
    }

    public let plausibility: Class
    /// Every preemption's stall, in the order of the decisions.
    public let stalls: [Stall]

    /// The longest stall (0 without a preemption).
    public var longestStallMicroseconds: Int { stalls.map(\.microseconds).max() ?? 0 }

    /// More plausible first: by class, then by the longest stall.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.plausibility, lhs.longestStallMicroseconds) < (rhs.plausibility, rhs.longestStallMicroseconds)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.plausibility == rhs.plausibility && lhs.longestStallMicroseconds == rhs.longestStallMicroseconds
    }

    /// The plausibility of the schedule `decisions` records, which injected `faults`.
    init(decisions: [Decision], faults: [FaultSite]) {
        var names: [Int: String] = [:]
        for decision in decisions {
            for candidate in decision.candidates where names[candidate.task] == nil {
                if let process = candidate.process { names[candidate.task] = process }
            }
        }
        stalls = decisions.indices.filter { decisions[$0].isPreemption }.map { index in
            Self.stall(at: index, of: decisions, names: names)
        }
        plausibility =
            !faults.isEmpty
            ? .needsAFault
            : stalls.allSatisfy(\.likely) ? .likely : .needsAStall
    }

    /// The plausibility of a run's schedule, from the decisions it recorded.
    public init(_ outcome: ScenarioOutcome) {
        self.init(decisions: outcome.decisionLog, faults: outcome.faults)
    }

    /// The stall of the task set aside at `decisions[index]`: the cost of every operation the
    /// tasks picked from there until it is picked again (or the run ends).
    private static func stall(at index: Int, of decisions: [Decision], names: [Int: String]) -> Stall {
        let decision = decisions[index]
        let setAside = decision.current!
        func operation(of task: Int, at decision: Decision) -> VisibleOperation? {
            decision.candidates.first { $0.task == task }?.operation
        }
        let last = decisions[..<index].last { $0.chosen == setAside }.flatMap { operation(of: setAside, at: $0) }
        var microseconds = 0
        var meanwhile = 0
        for later in decisions[index...] {
            if later.chosen == setAside { break }
            guard let performed = operation(of: later.chosen, at: later) else { continue }
            microseconds += OperationCost.microseconds(of: performed)
            meanwhile += 1
        }
        let process = decision.candidates.first { $0.task == setAside }?.process ?? names[setAside] ?? "task \(setAside)"
        return Stall(
            decision: decision.index, process: process, microseconds: microseconds, after: last?.description,
            before: operation(of: setAside, at: decision)?.description, meanwhile: meanwhile)
    }
}
