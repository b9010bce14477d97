import JSONValues
import DeviceActors
import ScenarioFiles
import ExtensionSandbox
import Foundation
@_spi(Host) import SimulatediOS

/// A scenario built in Swift, explored from a test (docs/sdk.md, "Exploring from a test"): the
/// same runner, strategies, seeds, shrinking, invariants and failure report as
/// `scenario.explore`, in process.
///
/// ```swift
/// let race = try Scenario("blocks counted", app: .dailyLimit, steps: [
///     .intent("setLimit", ["minutes": 1]),
///     .event(.appOpen(app: "com.example.game")),
///     .parallel([[.advance(seconds: 120)], [.event(.appOpen(app: "com.example.video"))]]),
/// ], invariants: [.that("every block counted") { $0.value(forKey: "blocks") == .int(2) }])
/// try race.explore(ExplorationPlan(strategy: .pct, schedules: 500))
/// ```
///
/// A failing schedule throws ``ExplorationFailed``: what broke, the interleaving told as a
/// story, and the `replay(schedule:)` call that runs exactly it again.
extension Scenario {
    /// A scenario of `app`: a fresh device started at `start` (ISO 8601) in `timeZone` with the
    /// device seed `seed` and `config`, then `steps`, with `invariants` checked after each.
    public init(
        _ name: String, app: AppRegistration, start: String = "2026-01-05T08:00:00Z", timeZone: String = "UTC",
        seed: UInt64 = 0, config: DeviceConfig = DeviceConfig(), steps: [ScenarioStep], invariants: [ScenarioCondition] = [],
        failOnRace: Bool = false, builtInInvariants: Bool = true, faults: Set<Fault> = []
    ) throws {
        guard let zone = TimeZone(identifier: timeZone) else {
            throw DeviceError.invalidArgument(field: "timeZone", reason: "unknown time zone \(timeZone)")
        }
        guard let date = DeviceCalendar.parseISO(start) else {
            throw DeviceError.invalidArgument(field: "start", reason: "expected an ISO 8601 date, got \(start)")
        }
        self.init(
            name: name, app: app, start: date, timeZone: zone, timeZoneName: timeZone, seed: seed, config: config,
            steps: steps, invariants: invariants, failOnRace: failOnRace, builtInInvariants: builtInInvariants,
            faults: faults)
        try validate()
    }

    /// A scenario file (docs/scenarios.md), as `clarityctl explore FILE` sends it, its apps among
    /// `apps` (yours, and `AppRegistration.builtIn` for the built-in ones): explored here, its
    /// failures print the same replay token as the daemon's, and a token the daemon printed for
    /// it replays here.
    public init(contentsOf file: URL, apps: [AppRegistration]) throws {
        let value: JSONValue
        do {
            value = try JSONWire.decode(JSONValue.self, from: Data(contentsOf: file))
        } catch {
            throw ScenarioInvalid(field: "scenario", reason: "\(file.path) is not a JSON scenario: \(error)")
        }
        self = try ScenarioFile.scenario(from: value, catalog: AppCatalog(apps))
    }

    /// Explores the scenario under `plan` and throws ``ExplorationFailed`` for the first failing
    /// schedule (shrunk to the fewest preemptions that still fail so); returns the report when
    /// every schedule passed. `jobs` is taken from the plan (the outcome does not depend on it).
    @discardableResult
    public func explore(_ plan: ExplorationPlan) throws -> ExplorationReport {
        let report = exploration(plan)
        if let failure = report.failures.first { throw ExplorationFailed(scenario: self, failure: failure, report: report) }
        return report
    }

    /// Explores a scenario that pins a known race: returns the first failure found (shrunk),
    /// and throws ``ExplorationPassed`` when every schedule passed.
    public func exploreExpectingFailure(_ plan: ExplorationPlan) throws -> ExplorationFailure {
        let report = exploration(plan)
        guard let failure = report.failures.first else { throw ExplorationPassed(scenario: name, report: report) }
        return failure
    }

    /// Runs the scenario's own schedule (first come, first served, no preemption): throws
    /// ``ExplorationFailed`` when it fails, returns the outcome when it passes.
    @discardableResult
    public func run() throws -> ScenarioOutcome {
        try replay(schedule: ScheduleToken(scenarioHash: hash, deviations: []).description)
    }

    /// Runs the schedule a failure printed (its `schedule` token) again: throws
    /// ``ExplorationFailed`` when it fails, as when it was found; returns the outcome (its
    /// `trace`, its device) when it passes, as it does once the race is fixed. A token of
    /// another scenario is refused.
    @discardableResult
    public func replay(schedule token: String) throws -> ScenarioOutcome {
        let parsed: ScheduleToken
        switch ScheduleToken.parse(token) {
        case .success(let value): parsed = value
        case .failure(let error): throw DeviceError.invalidArgument(field: "schedule", reason: error.reason)
        }
        guard parsed.scenarioHash.isEmpty || parsed.scenarioHash == hash else {
            throw DeviceError.invalidArgument(
                field: "schedule", reason: "the token was made for another scenario (\(parsed.scenarioHash); this one is \(hash))")
        }
        let outcome = ScenarioRunner.run(self, replaying: .deviations(parsed.deviations, faults: parsed.faults))
        if let divergence = outcome.divergence {
            throw DeviceError.invalidArgument(field: "schedule", reason: "the schedule no longer fits this build: \(divergence)")
        }
        if let reason = outcome.failure {
            throw ExplorationFailed(replayed: self, token: token, reason: reason, story: ScheduleStory.lines(of: outcome))
        }
        return outcome
    }

    /// What a replay token names the scenario by: a file's hash, as the daemon computes it; for
    /// one built in Swift, FNV-1a of its description (apps, start, seed, config, steps,
    /// invariants by name), the same in every run of one build.
    public var hash: String {
        if let fileHash { return fileHash }
        return ScheduleToken.fingerprint(
            Array("\(apps.map(\.name))|\(start.timeIntervalSince1970)|\(timeZoneName)|\(seed)|\(config)|\(steps)|\(invariants)|\(failOnRace)|\(faults.sorted { $0.rawValue < $1.rawValue })".utf8))
    }

    private func exploration(_ plan: ExplorationPlan) -> ExplorationReport {
        var plan = plan
        plan.scenarioHash = hash
        return ScenarioExplorer.explore(self, plan: plan, build: BuildInfo(version: "DeviceTesting", revision: nil))
    }
}

/// A schedule of an exploration failed: what broke, the interleaving as a story, and the call
/// that replays it, ready to paste into a test.
public struct ExplorationFailed: Error, CustomStringConvertible {
    /// What broke, where (`steps[2]`) and which invariant.
    public let reason: ScenarioFailureReason
    /// The replay token (``Scenario/replay(schedule:)``).
    public let schedule: String
    /// The interleaving: the operations around each switch between processes.
    public let story: [String]
    /// The exploration's report (nil for a replay).
    public let report: ExplorationReport?
    private let heading: String

    init(scenario: Scenario, failure: ExplorationFailure, report: ExplorationReport) {
        reason = ScenarioFailureReason(message: failure.message, step: failure.step, invariant: failure.invariant, kind: failure.kind)
        schedule = failure.schedule
        story = failure.story
        self.report = report
        let which = failure.scheduleIndex < 0 ? "the scenario's own schedule" : "schedule \(failure.scheduleIndex) (\(failure.strategy.rawValue), seed \(failure.seed))"
        heading = "Exploring \"\(scenario.name)\" failed on \(which) of \(report.schedules), shrunk to \(failure.preemptions) preemption(s)"
    }

    init(replayed scenario: Scenario, token: String, reason: ScenarioFailureReason, story: [String]) {
        self.reason = reason
        schedule = token
        self.story = story
        report = nil
        heading = "Replaying \"\(scenario.name)\" failed"
    }

    public var description: String {
        let where_ = [reason.step.map { "at \($0)" }, reason.invariant.map { "invariant \($0)" }].compactMap { $0 }
        return """
            \(heading)\(where_.isEmpty ? "" : " (\(where_.joined(separator: ", ")))"):
              \(reason.message)
            The interleaving:
            \(story.map { "  " + $0 }.joined(separator: "\n"))
            Replay it in a test:
              try scenario.replay(schedule: "\(schedule)")
            """
    }
}

/// An exploration expected to find a failure ran every schedule and none failed.
public struct ExplorationPassed: Error, CustomStringConvertible {
    public let scenario: String
    public let report: ExplorationReport

    public var description: String {
        "Exploring \"\(scenario)\" expected a failing schedule; all \(report.schedules) passed"
            + (report.exhaustive == true ? " (every schedule within \(report.bound ?? 0) preemptions)" : "")
    }
}

extension ScenarioStep {
    /// An intent step with JSON arguments, as `intent`'s `args` (decoded strictly by the app).
    public static func intent(_ name: String, _ args: JSONValue = [:]) -> ScenarioStep {
        .intent(name: name, arguments: JSONArguments(args))
    }

    /// A typed user action as a step (`.send(.limitApps([...]))`, ``AppAction``). Its input
    /// must encode (a value that cannot, such as a non-finite number, is a programming error).
    public static func send(_ action: some AppAction) -> ScenarioStep {
        do {
            return .intent(action.name, try JSONWire.value(AnyEncodable(action.input)))
        } catch {
            preconditionFailure("\(action.name)'s input does not encode as JSON: \(error)")
        }
    }
}
