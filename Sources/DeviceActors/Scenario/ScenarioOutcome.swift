import ExtensionSandbox
import Foundation
@_spi(Host) import SimulatediOS

/// What one schedule of a scenario did.
public struct ScenarioOutcome: Sendable {
    /// The first thing that went wrong, nil when the schedule passed.
    public let failure: ScenarioFailureReason?
    /// Everything the device traced, oldest first (made when asked: an exploration asks only
    /// of the failures it reports).
    public var trace: [TracedEffect] { device?.traceEntries(since: nil, limit: nil) ?? [] }
    var device: SimulatedDevice? { ran?.device }
    private let ran: ScheduleDevice?
    /// The task picked at each decision: replays this run under ``ReplayStrategy``.
    public let schedule: [Int]
    /// Every decision, with what it chose between.
    public let decisionLog: [Decision]
    /// The picks that differ from the non-preemptive one: all a replay needs.
    public var deviations: [ScheduleDeviation] {
        decisionLog.filter(\.deviates).map { ScheduleDeviation(decision: $0.index, task: $0.chosen) }
    }
    /// Scheduler steps (jobs run), decisions (scheduling points with a choice) and preemptions
    /// (decisions that switched away from a task that could have gone on).
    public let steps: Int
    public let decisions: Int
    public let preemptions: Int
    /// Why a replay stopped: it met another situation than the one it recorded (nil for a
    /// faithful replay, and for every other run).
    public let divergence: String?
    /// The strategy as the run left it (a bounded search reads what it noted).
    let strategy: (any SchedulingStrategy)?
    /// What the step after each decision touched, when the strategy asked (``Footprint``).
    let stepFootprints: [Footprint]
    /// The quirks that were on.
    public let quirks: [String: Bool]
    /// The faults that fired (``FaultPlan/fired``): with ``deviations``, what replays the run.
    public let faults: [FaultSite]
    /// The run was stopped before its end (its interruption said so): it neither passed nor
    /// failed, and ``failure`` is nil.
    public let interrupted: Bool
    /// Where each step began and ended in the trace, in the order the steps ended (a
    /// `parallel` step's branch steps before it).
    public let stepMarks: [StepMark]

    public var passed: Bool { failure == nil && !interrupted }

    init(
        failure: ScenarioFailureReason?, device: SimulatedDevice?, quirks: [String: Bool], interrupted: Bool = false,
        stepMarks: [StepMark] = []
    ) {
        self.failure = failure
        self.stepMarks = stepMarks
        self.quirks = quirks
        self.interrupted = interrupted
        self.ran = device.map(ScheduleDevice.init)
        guard let device else {
            (schedule, decisionLog, steps, decisions, preemptions, divergence, strategy) = ([], [], 0, 0, 0, nil, nil)
            stepFootprints = []
            faults = []
            return
        }
        let scheduler = device.world.scheduler
        faults = scheduler.faults.fired
        strategy = scheduler.strategy
        schedule = scheduler.choices
        decisionLog = scheduler.decisionLog
        stepFootprints = scheduler.stepFootprints
        steps = scheduler.steps
        decisions = scheduler.decisions
        preemptions = scheduler.preemptions
        if let stopped = scheduler.stopped {
            divergence = stopped
        } else if let replay = scheduler.strategy as? ReplayStrategy, replay.unconsumed > 0 {
            divergence =
                "the replay diverged: the run ended after \(scheduler.decisions) decisions, before \(replay.unconsumed) of the schedule's picks"
        } else if let unmet = scheduler.faults.unmetSites.first {
            divergence =
                "the replay diverged: the run ended before fault site \(unmet) (it met \(scheduler.faults.sitesMet(of: unmet.fault)) \(unmet.fault.rawValue) sites)"
        } else {
            divergence = nil
        }
    }

    /// Where the device ended — `device.state` and the app's App Group, as JSON — the step
    /// that failed, if one did, and what each process did, in its order (the trace projected on
    /// each actor): two schedules that differ only in the order of steps that commute give the
    /// same text (explorations are compared by it).
    func endState() -> String {
        guard let device else { return "no device" }
        let state = (try? device.state()).map(Self.json) ?? "?"
        let store = (try? device.storeDump(suite: nil)).map(Self.json) ?? "?"
        let byActor = Dictionary(grouping: trace) { $0.entry.actor }
            .mapValues { $0.map { Self.json($0).replacingOccurrences(of: #""seq":[0-9]+,"#, with: "", options: .regularExpression) } }
        let processes = byActor.keys.sorted().map { "\($0): \(byActor[$0]!.joined(separator: "; "))" }
        return "\(failure?.step ?? "passed") \(state) \(store)\n" + processes.joined(separator: "\n")
    }

    /// One value as compact JSON, for messages.
    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
    }
}

/// The device one schedule ran on, shared by its outcome's copies for as long as they are
/// looked at. When the last goes, the tasks the run left behind are ended (``World/reclaim()``):
/// they hold the device's actors, so without this a stopped schedule — every one `dfs` prunes —
/// would keep its whole device alive for good.
private final class ScheduleDevice: Sendable {
    let device: SimulatedDevice

    init(_ device: SimulatedDevice) {
        self.device = device
    }

    deinit {
        device.world.reclaim()
    }
}

/// A schedule as a failure or a client gives it: the task picked at every decision, or only the
/// picks that differ from the non-preemptive one (what a replay token holds).
public enum RecordedSchedule: Sendable, Equatable {
    case tasks([Int])
    /// The deviations from the non-preemptive schedule, and the faults that fired.
    case deviations([ScheduleDeviation], faults: [FaultSite] = [])

    var faults: [FaultSite] {
        if case .deviations(_, let faults) = self { return faults }
        return []
    }
}
