import ControlProtocol
import DeviceActors
import ScenarioFiles
import Foundation
@_spi(Host) import SimulatediOS

/// `scenario.run`, `scenario.replay` and `scenario.explore` (docs/scenarios.md). Each schedule
/// runs on a fresh world built from the scenario, never on a user's device, on the daemon's
/// scenario threads (``ScenarioWorkers``): bounded in number, at a low priority, so the daemon
/// keeps answering other clients meanwhile. Each stops when its caller goes away or the daemon
/// stops (``RequestCancellation``).
struct ScenarioMethods: Sendable {
    let build = BuildInfo(version: ClarityProtocol.version, revision: SourceRevision.current)
    let log: Logger
    let workers: ScenarioWorkers
    /// The apps a scenario may run: the daemon's.
    let catalog: AppCatalog
    /// Where a replay's `until` leaves its device.
    let devices: DeviceService

    /// `scenario.run`: one schedule, FIFO unless a strategy is given.
    func run(_ params: JSONValue?, _ caller: Caller) throws -> JSONValue {
        try workers.perform(.scenarioRun, for: caller) { () throws(RPCError) -> JSONValue in
            let request = try decodeParams(ScheduleParams.self, params)
            if request.until != nil || request.device != nil || request.walk != nil {
                let field = request.until != nil ? "until" : request.device != nil ? "device" : "walk"
                throw RPCError.invalidParams(field: field, reason: "goes with scenario.replay (a run has no device to leave)")
            }
            let scenario = try ScenarioFile.requested(request.scenario, catalog: catalog)
            let hash = ScenarioFile.hash(of: request.scenario)
            // A run traces as a live device does (a recorded session replays to its trace); a
            // replay as the exploration that found it, every read with its value.
            let (outcome, seed) = try run(
                scenario, request, strategy: request.strategy ?? .fifo, caller.cancellation, tracesEveryRead: false)
            return try encode(
                result(of: outcome, seed: seed, scenario: scenario, hash: hash, request, caller.cancellation, tracesEveryRead: false))
        }
    }

    /// `scenario.replay`: a failure again, from its `schedule`, or from `seed` + `strategy`.
    func replay(_ params: JSONValue?, _ caller: Caller) throws -> JSONValue {
        try workers.perform(.scenarioReplay, for: caller) { () throws(RPCError) -> JSONValue in
            let request = try decodeParams(ScheduleParams.self, params)
            guard request.schedule != nil || (request.seed != nil && request.strategy != nil) else {
                throw RPCError.invalidParams(field: "schedule", reason: "give a failure's schedule, or its seed and strategy")
            }
            let scenario = try ScenarioFile.requested(request.scenario, catalog: catalog)
            let hash = ScenarioFile.hash(of: request.scenario)
            let (outcome, seed) = try run(scenario, request, strategy: request.strategy ?? .fifo, caller.cancellation)
            var result = result(of: outcome, seed: seed, scenario: scenario, hash: hash, request, caller.cancellation)
            if request.walk == true { result.walk = ReplayWalkStep.walk(outcome) }
            if request.until != nil || request.device != nil {
                (result.device, result.stoppedAt) = try leaveStanding(outcome, of: scenario, token: result.token, request)
            }
            return try encode(result)
        }
    }

    /// The replay's device, made again and stopped where `until` says (at the run's end without
    /// it), registered as a live device named `device` (``ScenarioBreakpoint``, ``ReplayOrigin``).
    /// Its name is checked before the replay runs again: -32602 `device` for one that is not a
    /// device name, -32001 for one taken.
    private func leaveStanding(
        _ outcome: ScenarioOutcome, of scenario: Scenario, token: String, _ request: ScheduleParams
    ) throws(RPCError) -> (String, ReplayStop) {
        let decision = try request.until?.decision(in: outcome) ?? nil
        let name = request.device ?? ReplayOrigin.defaultName(of: scenario.name, at: decision)
        guard DeviceService.isDeviceName(name) else {
            throw RPCError.invalidParams(field: "device", reason: "1–64 letters, digits, '.', '_' or '-', not starting with '.'")
        }
        if devices.deviceNames.contains(name) { throw RPCError.deviceExists(name) }
        let origin = ReplayOrigin(
            name: name, app: scenario.app.name, scenario: request.scenario ?? .null, token: token, quirks: request.quirks,
            decision: decision)
        let device: SimulatedDevice
        do {
            device = try origin.stand(catalog: catalog)
        } catch {
            throw RPCError.internalError("the replay could not be stopped there: \(error)")
        }
        let ready = decision.map { outcome.decisionLog[$0].candidates.map(ReplayWalkStep.describe) } ?? []
        let stop = ReplayStop(
            decision: decision, end: decision == nil, seq: device.mark.sequence, t: device.now.t, time: device.now.time,
            ready: ready)
        do {
            _ = try devices.register(replayed: device, origin: origin)
        } catch let error as RPCError {
            throw error
        } catch {
            throw RPCError.internalError("\(error)")
        }
        log.info("replay left device \(name) at \(decision.map { "decision \($0)" } ?? "the run's end") (seq \(stop.seq))")
        return (name, stop)
    }

    /// One schedule of `scenario` as `request` gives it: its recorded schedule, or its seed and
    /// strategy (`kind`); the seed it ran, if it was one.
    private func run(
        _ scenario: Scenario, _ request: ScheduleParams, strategy kind: ExplorationPlan.StrategyKind,
        _ cancellation: RequestCancellation, tracesEveryRead: Bool = true
    ) throws(RPCError) -> (ScenarioOutcome, ScheduleSeed?) {
        try request.check()
        let quirks = request.quirks ?? [:]
        let interruption: @Sendable () -> Bool = { cancellation.isCancelled }
        var seed: ScheduleSeed?
        let outcome: ScenarioOutcome
        let hash = ScenarioFile.hash(of: request.scenario)
        if let schedule = request.schedule {
            outcome = ScenarioRunner.run(
                scenario, replaying: try schedule.recorded(for: hash), quirks: quirks, interruption: interruption,
                tracesEveryRead: tracesEveryRead)
        } else {
            let expected =
                kind == .pct
                ? request.expectedDecisions ?? ScenarioRunner.expectedDecisions(scenario, interruption: interruption) : nil
            let made = ScheduleSeed(strategy: kind, seed: request.seed ?? 0, depth: request.depth, expectedDecisions: expected)
            seed = made
            outcome = ScenarioRunner.run(
                scenario, seed: made, quirks: quirks, faults: scenario.faults, interruption: interruption,
                tracesEveryRead: tracesEveryRead)
        }
        if outcome.interrupted { throw RPCError.cancelled(reason: cancellation.reason?.rawValue ?? "cancelled") }
        return (outcome, seed)
    }

    /// `scenario.run`'s and `scenario.replay`'s answer for `outcome`.
    private func result(
        of outcome: ScenarioOutcome, seed: ScheduleSeed?, scenario: Scenario, hash: String, _ request: ScheduleParams,
        _ cancellation: RequestCancellation, tracesEveryRead: Bool = true
    ) -> ScheduleResult {
        let trace = outcome.trace
        let plausibility = outcome.passed ? nil : SchedulePlausibility(outcome)
        let explanation = FailureExplanation(
            outcome, of: scenario, interruption: { cancellation.isCancelled }, tracesEveryRead: tracesEveryRead)
        return ScheduleResult(
                passed: outcome.passed, failures: outcome.failure.map { [$0] } ?? [], strategy: seed?.strategy.rawValue ?? "replay",
                seed: seed?.seed, depth: seed?.depth, expectedDecisions: seed?.expectedDecisions, schedule: outcome.schedule,
                token: ScheduleToken(scenarioHash: hash, deviations: outcome.deviations, faults: outcome.faults).description,
                steps: outcome.steps, decisions: outcome.decisions,
                preemptions: seed?.strategy == .fifo ? 0 : outcome.preemptions, switches: outcome.preemptions,
                divergence: outcome.divergence, plausibility: plausibility?.plausibility, stalls: plausibility?.stalls,
                story: outcome.passed ? nil : ScheduleStory.lines(of: outcome, explanation: explanation),
                causalChain: explanation?.chain.links, readsFromDiff: explanation?.readsFromDiff,
                quirks: outcome.quirks.filter { $0.value }, build: build, trace: trace,
                perfetto: request.traceFormat == .perfetto
                    ? PerfettoTrace(
                        effects: trace, app: scenario.app.name, device: scenario.name, switches: ScheduleStory.switches(of: outcome))
                    : nil,
                report: request.report == true
                    ? ScenarioReport(of: outcome, labels: ScenarioFile.stepLabels(of: request.scenario)) : nil)
    }

    /// `scenario.explore`. With `progress: true`, while it runs the caller gets
    /// `scenario.progress` notifications (`{"schedules","done","failed","covered"}`, every 100 schedules
    /// and at each failure, only the latest kept for a slow reader); opt-in, because a client
    /// of the contract reads the answer as the next line. When the caller's connection closes,
    /// or the daemon stops, the exploration stops within a schedule (`stoppedBy`). Its `jobs`
    /// are at most the daemon's scenario threads.
    func explore(_ params: JSONValue?, _ caller: Caller) throws -> JSONValue {
        try workers.perform(.scenarioExplore, for: caller) { () throws(RPCError) -> JSONValue in
            try explore(params, caller, cancellation: caller.cancellation)
        }
    }

    private func explore(_ params: JSONValue?, _ caller: Caller, cancellation: RequestCancellation) throws(RPCError)
        -> JSONValue
    {
        let request = try decodeParams(ExploreParams.self, params)
        var plan = try request.plan()
        plan.jobs = min(plan.jobs, workers.threadCount)
        plan.scenarioHash = ScenarioFile.hash(of: request.scenario)
        let scenario = try ScenarioFile.requested(request.scenario, catalog: catalog)
        let subscriptions = caller.subscriptions
        let total = (plan.schedules - plan.shard.index + plan.shard.count - 1) / plan.shard.count
        let wantsProgress = request.progress ?? false
        let control = ScenarioExplorer.Control(
            progress: { progress in
                guard wantsProgress else { return }
                var params: [String: JSONValue] = [
                    "schedules": .int(total), "done": .int(progress.done), "failed": .int(progress.failed),
                ]
                params["covered"] = progress.covered.map(JSONValue.int)
                let note: JSONValue = [
                    "jsonrpc": "2.0", "method": .string(ServerNotification.scenarioProgress.rawValue), "params": .object(params),
                ]
                guard var line = try? JSONWire.bytes(note) else { return }
                line.append(UInt8(ascii: "\n"))
                subscriptions.post(progress: line)
            },
            stopReason: { cancellation.reason?.rawValue },
            spread: { [workers] count, body in workers.spread(count, body) })
        let report = ScenarioExplorer.explore(scenario, plan: plan, build: build, control: control)
        switch cancellation.reason {
        case .cancelled?: log.info("connection \(caller.connection) went away: exploration stopped after \(report.schedules) schedules")
        case .shutdown?: log.info("the daemon is stopping: exploration stopped after \(report.schedules) schedules")
        case nil: break
        }
        guard request.shrinkScenario == true else { return try encode(report) }
        return ScenarioShrinker.attach(
            to: try encode(report), report: report, document: request.scenario, catalog: catalog,
            interruption: { cancellation.isCancelled })
    }

    /// `scenario.cancel`: `id`, the request id of a `scenario.explore` that runs or waits, and
    /// `connection` when needed (``ScenarioWorkers/cancel(explorationWithID:on:)``), from any
    /// connection: `{"cancelled": true}` when one was (it answers its caller with what it found,
    /// `stoppedBy: "cancelled"`), false when none runs under that id; -32602 `id` when several
    /// connections run one under it, naming them.
    func cancel(_ params: JSONValue?) throws -> JSONValue {
        let request = try decodeParams(CancelParams.self, params)
        switch workers.cancel(explorationWithID: request.id, on: request.connection) {
        case .cancelled: return ["cancelled": true]
        case .noneFound: return ["cancelled": false]
        case .ambiguous(let connections):
            throw RPCError.invalidParams(
                field: "id",
                reason: "explorations with this id run on connections \(connections.map(String.init).joined(separator: ", ")): "
                    + "give connection, one of them (ids are each connection's own)")
        }
    }

    private func encode(_ value: some Encodable) throws(RPCError) -> JSONValue {
        do {
            return try JSONWire.value(value)
        } catch {
            throw RPCError.internalError("the result could not be encoded: \(error)")
        }
    }
}

/// `scenario.run` / `scenario.replay`'s answer.
private struct ScheduleResult: Encodable {
    let passed: Bool
    let failures: [ScenarioFailureReason]
    let strategy: String
    let seed: UInt64?
    let depth: Int?
    let expectedDecisions: Int?
    /// The task picked at each decision; `token`, only the picks that differ from the
    /// non-preemptive one: either replays the run.
    let schedule: [Int]
    let token: String
    let steps: Int
    let decisions: Int
    /// The switches the strategy chose away from a task that could have gone on: none for FIFO,
    /// whose turns are the device's ordinary schedule, not a perturbation of it (docs/decisions.md).
    let preemptions: Int
    /// Every switch away from a task that could have gone on, FIFO's turns included.
    let switches: Int
    /// Why a replay stopped at a situation other than the one it recorded.
    let divergence: String?
    /// For a failed run: how likely its schedule is on a device, and each preemption's stall
    /// (docs/scenarios.md, "How likely a schedule is"), as `scenario.explore`'s failures say.
    let plausibility: SchedulePlausibility.Class?
    let stalls: [SchedulePlausibility.Stall]?
    /// A failed run told as the story of its switches, then its causal chain.
    let story: [String]?
    /// A failed run's ``CausalChain`` and reads-from diff against the sequential run.
    let causalChain: [CausalLink]?
    let readsFromDiff: [ReadsFromChange]?
    let quirks: [String: Bool]
    let build: BuildInfo
    let trace: [TracedEffect]
    /// With `traceFormat: "perfetto"`: the trace as `trace.export` gives it, to open in Perfetto.
    let perfetto: PerfettoTrace?
    /// With `report: true`: the device, a frame per step and the timeline, for an HTML report
    /// (``ScenarioReport``; `clarityctl run|replay|explore --html`).
    let report: ScenarioReport?
    /// A replay's `until` or `device`: the live device it left standing, and where.
    var device: String?
    var stoppedAt: ReplayStop?
    /// A replay's `walk: true`: every decision, told (`clarityctl replay --step`).
    var walk: [ReplayWalkStep]?
}

/// Params of `scenario.run` and `scenario.replay`.
struct ScheduleParams: Decodable, Sendable {
    var scenario: JSONValue?
    var strategy: ExplorationPlan.StrategyKind?
    var seed: UInt64?
    var depth: Int?
    var expectedDecisions: Int?
    var schedule: ScheduleParam?
    /// Quirks switched on over the scenario's (a swarm failure's `quirks`).
    var quirks: [String: Bool]?
    /// `perfetto` adds the run's trace in Chrome trace-event JSON (`perfetto` in the answer).
    var traceFormat: TraceFormat?
    /// `scenario.replay`: leave the replay's device standing at this point, as a live device
    /// (``ReplayUntil``); `device` names it (default `<scenario>-at-d<N>`, `<scenario>-at-end`).
    var until: ReplayUntil?
    var device: String?
    /// `scenario.replay`: tell every decision in the answer (`walk`).
    var walk: Bool?
    /// Add `report`: a frame per step and the timeline, folded from the trace (nothing more is
    /// asked of the run's device, so its trace and schedule are the same).
    var report: Bool?

    enum TraceFormat: String, Decodable, Sendable, CaseIterable { case perfetto }

    /// PCT's depth, when given: 1 to 10.
    static func check(depth: Int?) throws(RPCError) {
        if let depth, !(1...10).contains(depth) { throw RPCError.invalidParams(field: "depth", reason: "must be 1 to 10") }
    }

    func check() throws(RPCError) {
        try ScheduleParams.check(depth: depth)
        if strategy == .dfs {
            throw RPCError.invalidParams(
                field: "strategy", reason: "dfs is an exploration (scenario.explore); replay its failure by its schedule")
        }
        if let expectedDecisions, expectedDecisions < 1 {
            throw RPCError.invalidParams(field: "expectedDecisions", reason: "must be ≥ 1")
        }
        if case .tasks(let tasks)? = schedule, let index = tasks.firstIndex(where: { $0 < 0 }) {
            throw RPCError.invalidParams(field: "schedule[\(index)]", reason: "a choice is a task number ≥ 0")
        }
        if let quirks {
            // The device config's own check, so the two can never disagree.
            var overrides = DeviceConfig.Overrides()
            overrides.quirks = quirks
            do {
                _ = try DeviceConfig().applying(overrides)
            } catch {
                throw RPCError(error)
            }
        }
    }
}

/// Params of `scenario.explore`.
struct ExploreParams: Decodable, Sendable {
    var scenario: JSONValue?
    /// The first failure also gets `shrunkScenario`: the scenario without the steps and
    /// branches it does not need (``ScenarioShrinker``).
    var shrinkScenario: Bool?
    var schedules: Int?
    var strategy: ExplorationPlan.StrategyKind?
    var depth: Int?
    var seedStart: UInt64?
    var stopAtFirst: Bool?
    var timeLimit: Double?
    var shard: String?
    var swarm: Bool?
    var jobs: Int?
    /// `dfs`: the most preemptions a schedule may have (0 to 10, default 2).
    var preemptionBound: Int?
    /// `dfs`: run one order of steps that commute (default true); false runs every schedule
    /// within the bound.
    var sleepSets: Bool?
    /// Count only failing schedules whose preemptions are all `likely` (default false).
    var plausible: Bool?
    /// Send `scenario.progress` notifications while exploring.
    var progress: Bool?

    static let maxSchedules = 10_000_000

    func plan() throws(RPCError) -> ExplorationPlan {
        // A bounded search ends when it has run every schedule within its bound.
        let schedules = schedules ?? (strategy == .dfs ? Self.maxSchedules : 1000)
        guard (1...Self.maxSchedules).contains(schedules) else {
            throw RPCError.invalidParams(field: "schedules", reason: "must be 1 to \(Self.maxSchedules)")
        }
        let strategy = strategy ?? .pct
        guard strategy != .fifo else {
            throw RPCError.invalidParams(field: "strategy", reason: "explore with random or pct (fifo has one schedule: scenario.run)")
        }
        try ScheduleParams.check(depth: depth)
        if let preemptionBound {
            guard strategy == .dfs else {
                throw RPCError.invalidParams(field: "preemptionBound", reason: "goes with strategy dfs")
            }
            guard (0...10).contains(preemptionBound) else {
                throw RPCError.invalidParams(field: "preemptionBound", reason: "must be 0 to 10")
            }
        }
        if sleepSets != nil, strategy != .dfs {
            throw RPCError.invalidParams(field: "sleepSets", reason: "goes with strategy dfs")
        }
        if strategy == .dfs, shard != nil {
            throw RPCError.invalidParams(field: "shard", reason: "dfs runs one search; shard random or pct explorations")
        }
        if let timeLimit, !(timeLimit > 0 && timeLimit <= 86_400) {
            throw RPCError.invalidParams(field: "timeLimit", reason: "seconds, > 0 and at most 86400")
        }
        if let jobs, !(1...256).contains(jobs) { throw RPCError.invalidParams(field: "jobs", reason: "must be 1 to 256") }
        // Schedule i runs seed seedStart + i; every one must be a seed a request can carry
        // exactly (an integer up to Int.max), or a failure's seed could not be replayed.
        let lastStart = UInt64(Int.max) - UInt64(schedules - 1)
        if let seedStart, seedStart > lastStart {
            throw RPCError.invalidParams(
                field: "seedStart",
                reason: "at most \(lastStart) with \(schedules) schedules: schedule i runs seed seedStart + i, and a seed is at most \(Int.max)")
        }
        var plan = ExplorationPlan(
            strategy: strategy, depth: depth ?? 3, schedules: schedules, seedStart: seedStart ?? 0,
            stopAtFirst: stopAtFirst ?? true, timeLimit: timeLimit, shard: try parsedShard(), swarm: swarm ?? false,
            jobs: jobs ?? .max)
        plan.preemptionBound = preemptionBound
        plan.sleepSets = sleepSets ?? true
        plan.plausibleOnly = plausible ?? false
        return plan
    }

    /// `"i/n"`: this run takes every n-th schedule from the i-th (0 ≤ i < n).
    private func parsedShard() throws(RPCError) -> (index: Int, count: Int) {
        guard let shard else { return (0, 1) }
        let parts = shard.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, count <= 10_000,
            index >= 0, index < count
        else {
            throw RPCError.invalidParams(field: "shard", reason: "\"i/n\" with 0 ≤ i < n ≤ 10000, e.g. \"0/4\"")
        }
        return (index, count)
    }
}

/// A schedule to replay, as a failure gives it: the task picked at every decision (`[1,2,1,…]`),
/// or a token (`"v1:<scenario hash>:12@3,40@1"`, ``ScheduleToken``).
enum ScheduleParam: Decodable, Sendable {
    case tasks([Int])
    case token(String)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let token = try? container.decode(String.self) {
            self = .token(token)
        } else {
            self = .tasks(try container.decode([Int].self))
        }
    }

    /// The schedule to replay on the scenario of hash `scenarioHash`: a token found for another
    /// scenario is refused (-32602 `schedule`).
    func recorded(for scenarioHash: String) throws(RPCError) -> RecordedSchedule {
        switch self {
        case .tasks(let tasks): return .tasks(tasks)
        case .token(let text):
            switch ScheduleToken.parse(text) {
            case .failure(let error): throw RPCError.invalidParams(field: "schedule", reason: error.reason)
            case .success(let token):
                guard token.scenarioHash.isEmpty || token.scenarioHash == scenarioHash else {
                    throw RPCError.invalidParams(
                        field: "schedule",
                        reason: "the token was found for another scenario (hash \(token.scenarioHash); this one's is \(scenarioHash))")
                }
                return .deviations(token.deviations, faults: token.faults)
            }
        }
    }
}

/// `scenario.cancel`'s params: the id of the exploration's request, and the connection it came
/// on (the number the daemon's log gives it) when the id alone does not tell.
struct CancelParams: Decodable, Sendable {
    var id: RPCID
    var connection: Int?
}
