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
    private let device: SimulatedDevice?
    /// The index picked at each decision: replays this run under ``ReplayStrategy``.
    public let schedule: [Int]
    /// Scheduler steps (jobs run) and decisions (steps with a choice).
    public let steps: Int
    public let decisions: Int
    /// Decisions where a replayed schedule no longer fitted (0 for a faithful replay).
    public let divergences: Int
    /// The quirks that were on.
    public let quirks: [String: Bool]
    /// The run was stopped before its end (its interruption said so): it neither passed nor
    /// failed, and ``failure`` is nil.
    public let interrupted: Bool

    public var passed: Bool { failure == nil && !interrupted }

    init(failure: ScenarioFailureReason?, device: SimulatedDevice?, quirks: [String: Bool], interrupted: Bool = false) {
        self.failure = failure
        self.quirks = quirks
        self.interrupted = interrupted
        self.device = device
        guard let device else {
            (schedule, steps, decisions, divergences) = ([], 0, 0, 0)
            return
        }
        let scheduler = device.world.scheduler
        schedule = scheduler.choices
        steps = scheduler.steps
        decisions = scheduler.decisions
        divergences = (scheduler.strategy as? ReplayStrategy)?.divergences ?? 0
    }

    /// One value as compact JSON, for messages.
    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
    }
}
