import ExtensionSandbox
@_spi(Host) import SimulatediOS

/// Runs one schedule of a scenario: a fresh device built from the scenario, never a user's,
/// driven step by step under the given strategy, with every expectation and invariant checked.
/// Same scenario, strategy and build ⇒ the same trace and schedule, byte for byte.
public enum ScenarioRunner {
    /// - Parameter quirks: quirks switched on for this schedule (swarm mode), over the scenario's.
    /// - Parameter faults: the faults this schedule may meet, set once the device is made (its
    ///   creation meets none).
    /// - Parameter interruption: asked between steps and before each instant at which timers
    ///   fire; once it says true the run stops, ``ScenarioOutcome/interrupted`` (nobody waits
    ///   for it any more).
    /// - Parameter tracesEveryRead: every App Group read traced with its value, the main app's
    ///   too (``DeviceRunOptions/tracesEveryRead``): what stories, coverage and shrinking read.
    ///   Off only for `scenario.run`, whose trace is the one a live device would make (a
    ///   recorded session replays to its trace). The decisions are the same either way.
    public static func run(
        _ scenario: Scenario, strategy: any SchedulingStrategy, quirks: [String: Bool] = [:], faults: FaultPlan = .none,
        interruption: (@Sendable () -> Bool)? = nil, tracesEveryRead: Bool = true
    ) -> ScenarioOutcome {
        var config = scenario.config
        config.quirks.merge(quirks) { _, swarm in swarm }
        if scenario.failOnRace { config.raceDetector = true }
        let device: SimulatedDevice
        do {
            device = try SimulatedDevice(
                scenario.device(named: scenario.deviceName, config: config),
                options: DeviceRunOptions(strategy: strategy, recordsSchedule: true, tracesEveryRead: tracesEveryRead))
        } catch {
            return ScenarioOutcome(
                failure: ScenarioFailureReason(message: "the device could not be made: \(error)", step: nil, invariant: nil),
                device: nil, quirks: config.quirks)
        }
        device.world.interruption = interruption
        device.world.scheduler.faults = faults
        let marks = StepMarks()
        let failure = run(scenario, on: device, marks: marks, interruption: interruption)
        if let interruption, interruption() {
            return ScenarioOutcome(failure: nil, device: device, quirks: config.quirks, interrupted: true)
        }
        return ScenarioOutcome(failure: failure, device: device, quirks: config.quirks, stepMarks: marks.all)
    }

    /// One schedule from its seed (``ScheduleSeed/makeStrategy()``), meeting faults of the
    /// `faults` kinds seeded by the same seed.
    public static func run(
        _ scenario: Scenario, seed: ScheduleSeed, quirks: [String: Bool] = [:], faults: Set<Fault> = [],
        interruption: (@Sendable () -> Bool)? = nil, tracesEveryRead: Bool = true
    ) -> ScenarioOutcome {
        run(
            scenario, strategy: seed.makeStrategy(), quirks: quirks, faults: seed.faultPlan(enabled: faults),
            interruption: interruption, tracesEveryRead: tracesEveryRead)
    }

    /// One schedule from its recorded picks: the task at every decision, or only the deviations
    /// from the non-preemptive pick (``ReplayStrategy``).
    public static func run(
        _ scenario: Scenario, replaying schedule: RecordedSchedule, quirks: [String: Bool] = [:],
        interruption: (@Sendable () -> Bool)? = nil, tracesEveryRead: Bool = true
    ) -> ScenarioOutcome {
        let strategy =
            switch schedule {
            case .tasks(let tasks): ReplayStrategy(tasks: tasks)
            case .deviations(let deviations, _): ReplayStrategy(deviations: deviations)
            }
        return run(
            scenario, strategy: strategy, quirks: quirks, faults: .replaying(schedule.faults), interruption: interruption,
            tracesEveryRead: tracesEveryRead)
    }

    /// The decisions of the scenario's FIFO run: PCT's estimate of a schedule's length.
    public static func expectedDecisions(_ scenario: Scenario, interruption: (@Sendable () -> Bool)? = nil) -> Int {
        run(scenario, strategy: FIFOStrategy(), interruption: interruption).decisions
    }

    /// Runs the steps in order, marking where each began and ended in the trace (``StepMark``).
    private static func run(
        _ scenario: Scenario, on device: SimulatedDevice, marks: StepMarks, interruption: (@Sendable () -> Bool)?
    ) -> ScenarioFailureReason? {
        var checks = Checks(
            scenario: scenario, invariants: scenario.builtInInvariants ? scenario.scenarioInvariants : [])
        for (index, step) in scenario.steps.enumerated() {
            if let interruption, interruption() { return nil }
            let path = "steps[\(index)]"
            let begun = (seq: device.trace.recorder.lastSequence, t: device.world.clock.now.seconds)
            let failure: ScenarioFailureReason?
            do {
                failure = try perform(step, at: path, index: index, on: device, marks: marks)
            } catch {
                failure = ScenarioFailureReason(message: "\(error)", step: path, invariant: nil)
            }
            marks.add(
                StepMark(
                    position: [index], startSeq: begun.seq, endSeq: device.trace.recorder.lastSequence, startT: begun.t,
                    endT: device.world.clock.now.seconds))
            if let failure { return failure }
            if let failure = checks.failure(on: device, after: path) { return failure }
        }
        return checks.failure(on: device, after: nil)
    }

    /// Runs one step; a failed expectation or a refused input is returned as the failure.
    private static func perform(
        _ step: ScenarioStep, at path: String, index: Int, on device: SimulatedDevice, marks: StepMarks
    ) throws(DeviceError) -> ScenarioFailureReason? {
        switch step {
        case .event(let event):
            _ = try device.apply(event)
        case .intent(let name, let arguments, let app):
            _ = try device.perform(intent: name, arguments: arguments, app: app)
        case .advance(let seconds):
            _ = try device.advance(seconds: seconds)
        case .parallel(let branches):
            for (branch, failure) in try device.runBranches(branches, of: index, marks: marks).enumerated() {
                guard let failure else { continue }
                return ScenarioFailureReason(
                    message: failure.message, step: "\(path).parallel[\(branch)][\(failure.step)]", invariant: nil)
            }
        case .expect(let condition):
            if let violation = try condition.violation(on: device) {
                return ScenarioFailureReason(message: "expected \(violation)", step: path, invariant: nil)
            }
        case .waitUntil(let condition, let seconds):
            if let timeout = try device.wait(until: condition, within: seconds) {
                return ScenarioFailureReason(message: timeout, step: path, invariant: nil)
            }
        case .failing(let input, let expected):
            do {
                if let failure = try perform(input, at: path, index: index, on: device, marks: marks) { return failure }
            } catch {
                guard InputFailure(error) == expected else {
                    return ScenarioFailureReason(
                        message: "failed otherwise than the step expects (\(expected)): \(error)", step: path, invariant: nil)
                }
                return nil
            }
            return ScenarioFailureReason(
                message: "expected it to fail (\(expected)), but it went through", step: path, invariant: nil)
        }
        return nil
    }

    /// The scenario's invariants, the app's built-in ones and (when asked) the race detector's
    /// verdict, over one run: each look is shown the trace entries recorded since the last.
    private struct Checks {
        let scenario: Scenario
        var builtIn: [(name: String, app: String?, check: any InvariantCheck)]
        var seen = 0

        init(scenario: Scenario, invariants: [(app: String?, invariant: AppInvariant)]) {
            self.scenario = scenario
            builtIn = invariants.map { ($0.invariant.name, $0.app, $0.invariant.start()) }
        }

        /// Why the device breaks a rule after `step` (nil: at the end), or nil.
        mutating func failure(on device: SimulatedDevice, after step: String?) -> ScenarioFailureReason? {
            let newEntries = device.trace.recorder.entries(after: seen)
            seen = newEntries.last?.sequence ?? seen
            do {
                for (index, condition) in scenario.invariants.enumerated() {
                    if let violation = try condition.violation(on: device) {
                        return ScenarioFailureReason(
                            message: "invariant broken: \(violation)", step: step, invariant: "invariants[\(index)]")
                    }
                }
                for index in builtIn.indices {
                    let violation =
                        if let app = builtIn[index].app, device.appNames.count > 1 {
                            try AppInvariantContext(device: device, appName: app).violation(
                                of: &builtIn[index].check, newEntries: newEntries)
                        } else {
                            try builtIn[index].check.violation(in: device, newEntries: newEntries)
                        }
                    if let violation {
                        return ScenarioFailureReason(message: violation, step: step, invariant: builtIn[index].name)
                    }
                }
            } catch {
                return ScenarioFailureReason(message: "checking invariants failed: \(error)", step: step, invariant: nil)
            }
            for entry in newEntries where scenario.failOnRace {
                guard case .race(let lost) = entry.payload else { continue }
                let shown = TracedEffect(entry: entry, calendar: device.calendar)
                return ScenarioFailureReason(
                    message: "lost update on the App Group: \(ScenarioOutcome.json(shown))", step: step, invariant: "race",
                    kind: "\(lost.key): \(entry.actor) over \(lost.otherActor)")
            }
            return nil
        }
    }
}

/// Why a schedule failed: the message, the step (`steps[3]`, `steps[2].parallel[1][0]`, nil at
/// the end) and the invariant broken, if one was.
public struct ScenarioFailureReason: Sendable, Encodable, Equatable {
    public let message: String
    public let step: String?
    public let invariant: String?
    /// What sets this failure apart from another of the same step and invariant, when that is
    /// more than the message's numbers: for a lost update, the key and who overwrote whom
    /// (`requestsToday: dailylimit.shieldAction over dailylimit.monitor`).
    public let kind: String?

    public init(message: String, step: String?, invariant: String?, kind: String? = nil) {
        self.message = message
        self.step = step
        self.invariant = invariant
        self.kind = kind
    }

    /// Whether `other` is this failure again, as shrinking needs it: the same step, invariant
    /// and kind (a lost update of the app over the monitor is not one of the monitor over the app).
    public func isSameFailure(as other: ScenarioFailureReason) -> Bool {
        step == other.step && invariant == other.invariant && kind == other.kind
    }
}
