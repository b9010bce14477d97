import ExtensionSandbox
@_spi(Host) import SimulatediOS

/// A replay stopped at a decision, its device left standing there as a live device (`clarityctl
/// replay … --until`, docs/scenarios.md, "Stepping into a counterexample"): a debugger's
/// breakpoint. The scenario runs as ``ScenarioRunner`` runs it, replaying the schedule, on the
/// device every run of it makes (then renamed for its host); at decision `decision` the world stops before the pick, every ready
/// task held where it stood (``SimulatedDevice/standsAtBreakpoint``). From then on the device
/// is an ordinary one: FIFO, no decision recorded, no fault, its steps not checked; the
/// scenario's later steps never run.
public enum ScenarioBreakpoint {
    /// Why no device could be left standing.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The device `scenario` leaves at decision `decision` of `schedule` (nil: at the run's end,
    /// where it passed or failed), named `name`. Refused when the device could not be made, or
    /// the run ended, or diverged from `schedule`, before the decision.
    public static func stand(
        _ scenario: Scenario, named name: String, replaying schedule: RecordedSchedule, quirks: [String: Bool] = [:],
        atDecision decision: Int?
    ) throws(Refusal) -> SimulatedDevice {
        let replay =
            switch schedule {
            case .tasks(let tasks): ReplayStrategy(tasks: tasks)
            case .deviations(let deviations, _): ReplayStrategy(deviations: deviations)
            }
        let outcome = ScenarioRunner.run(
            scenario, strategy: BreakpointStrategy(replay: replay, decision: decision), quirks: quirks,
            faults: .replaying(schedule.faults))
        guard let device = outcome.device else {
            throw Refusal(description: outcome.failure?.message ?? "the device could not be made")
        }
        let strategy = device.world.scheduler.strategy as? BreakpointStrategy
        if let decision, strategy?.reached != true {
            throw Refusal(
                description: "the replay ended after \(outcome.decisions) decisions, before decision \(decision)"
                    + (outcome.divergence.map { ": \($0)" } ?? ""))
        }
        if decision == nil, let divergence = outcome.divergence {
            throw Refusal(description: divergence)
        }
        if decision == nil, let unconsumed = strategy?.replay.unconsumed, unconsumed > 0 {
            throw Refusal(
                description: "the replay diverged: the run ended after \(outcome.decisions) decisions, before \(unconsumed) of the schedule's picks")
        }
        device.world.holdStoppedTasks()
        // Made under the scenario's device name, as every run of it is: its apps see that name
        // and draw the ids the counterexample drew (``Platform/uuid()`` mixes the name in).
        device.name = name
        return device
    }
}

/// Replays a schedule up to decision `decision`, where it stops the world before picking
/// (nil: never).
private struct BreakpointStrategy: SchedulingStrategy {
    private(set) var replay: ReplayStrategy
    let decision: Int?
    private(set) var reached = false

    init(replay: ReplayStrategy, decision: Int?) {
        self.replay = replay
        self.decision = decision
    }

    var name: String { "replay" }

    mutating func pickNext(_ ready: ReadyTasks) -> Int {
        guard ready.decision != decision else {
            reached = true
            return -1
        }
        return replay.pickNext(ready)
    }

    var stopReason: String? { reached ? "stopped at decision \(decision ?? 0), a breakpoint" : replay.stopReason }
}
