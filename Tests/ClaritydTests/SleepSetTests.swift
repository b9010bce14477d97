import BuiltInApps
import Clarity
import ControlProtocol
import Foundation
import ScenarioFiles
import Testing

@testable import ClarityDaemon
@testable import DeviceActors
@testable import ExtensionSandbox

/// `dfs` with sleep sets runs one order of steps that commute, judged by what each step touched
/// (``Footprint``). What it skips must be only orders that end the same way: on shipped scenarios,
/// the search with sleep sets reaches exactly the end states (device state, App Group contents,
/// the failing step) that the search without them reaches, in fewer schedules. (Scenarios whose
/// whole bound-0 space is small: Clarity's has 37,776 schedules without sleep sets since issue
/// 41 — a minute in release, ten in debug.)
@Suite struct SleepSetTests {
    /// The end states of every schedule a `dfs` run reached, and how many it ran.
    private static func endStates(of scenario: Scenario, bound: Int?, sleepSets: Bool) -> (Set<String>, BoundedSearch.Result) {
        var plan = ExplorationPlan(strategy: .dfs, schedules: 1_000_000, stopAtFirst: false)
        plan.preemptionBound = bound
        plan.sleepSets = sleepSets
        var states: Set<String> = []
        let result = BoundedSearch.search(scenario, plan: plan, control: .init(), deadline: nil) {
            states.insert($0.endState())
        }
        return (states, result)
    }

    @Test(arguments: ["scrollkitty-concurrent-bypass-fixed", "spendless-flag-race"])
    func sleepSetsReachEveryEndStateAtBoundZero(_ name: String) throws {
        let scenario = try shippedScenario(name)
        let (every, all) = Self.endStates(of: scenario, bound: 0, sleepSets: false)
        let (reduced, fewer) = Self.endStates(of: scenario, bound: 0, sleepSets: true)
        #expect(all.exhaustive && fewer.exhaustive)
        #expect(all.pruned == 0)
        #expect(fewer.schedules < all.schedules, "\(fewer.schedules) schedules with sleep sets, \(all.schedules) without")
        #expect(every.count > 1, "a search that reaches one end state shows nothing")
        #expect(reduced == every, "end states missed: \(every.subtracting(reduced).count)")
        #expect((fewer.failedTotal > 0) == (all.failedTotal > 0))
    }

    /// `dfs` without a bound means none (issue 42; it meant 2): bounds 0, 1, … until a bound's
    /// search leaves out no pick for passing it. MakeHay's background gap needs one preemption at
    /// most: the search stops after bound 1 (1 + 4 schedules), exhaustive for the whole space, and
    /// reaches every end state the search without sleep sets reaches at bound 10.
    @Test func noBoundSearchesUntilNoScheduleNeedsMorePreemptions() throws {
        let scenario = try shippedScenario("makehay-background-gap")
        let (reached, unbounded) = Self.endStates(of: scenario, bound: nil, sleepSets: true)
        let (every, deep) = Self.endStates(of: scenario, bound: 10, sleepSets: false)
        #expect(unbounded.exhaustive && !unbounded.cutByBound)
        #expect(unbounded.schedules == 5, "bound 0: 1 schedule; bound 1: 4, none left out")
        #expect(deep.exhaustive && deep.schedules > unbounded.schedules)
        #expect(reached == every)
        let (_, bound0) = Self.endStates(of: scenario, bound: 0, sleepSets: true)
        #expect(bound0.exhaustive && bound0.cutByBound, "at bound 0 a pick was left out: not the whole space")
    }

    @Test func noBoundInTheRequestMeansNoneAndTheAnswerHasNoBound() throws {
        func plan(_ params: String) throws -> ExplorationPlan {
            try JSONDecoder().decode(ExploreParams.self, from: Data(params.utf8)).plan()
        }
        #expect(try plan(#"{"strategy": "dfs"}"#).preemptionBound == nil)
        #expect(try plan(#"{"strategy": "dfs", "preemptionBound": 2}"#).preemptionBound == 2)
        var explore = ExplorationPlan(strategy: .dfs, schedules: 1_000, stopAtFirst: false)
        explore.preemptionBound = nil
        let report = ScenarioExplorer.explore(
            try shippedScenario("makehay-background-gap"), plan: explore, build: BuildInfo(version: "test", revision: nil))
        let answer = try JSONWire.decode(JSONValue.self, from: try JSONEncoder().encode(report))
        #expect(answer["bound"] == nil)
        #expect(answer["exhaustive"] == true)
    }

    /// A sleeper that ran inside another task's step (left the only one ready) has taken its step:
    /// what it does next is new, so it wakes, though nothing that step touched conflicts with the
    /// footprint it fell asleep with. Before issue 42 it stayed asleep, and a run that needed its
    /// next step was cut as a repeat.
    @Test func aSleeperThatRanInsideAnotherTasksStepWakes() {
        let keyA = Access("group.test", "a", writes: true)
        var strategy = BoundedSearch.SleepingStrategy(prefix: [(task: 2, before: [(task: 1, footprint: Footprint([keyA]))])])
        func ready(_ decision: Int, _ tasks: [Int], after step: Footprint) -> ReadyTasks {
            ReadyTasks(
                tasks: tasks, current: nil, decision: decision, announced: [:], actors: tasks.map { _ in nil },
                previousStep: step)
        }
        #expect(strategy.pickNext(ready(0, [1, 2], after: Footprint())) == 1)
        var step = Footprint([Access("group.test", "b", writes: true)])
        step.enter(2)
        step.enter(1)
        #expect(strategy.pickNext(ready(1, [1, 3], after: step)) == 0, "task 1 ran in task 2's step: awake")
        #expect(strategy.asleepAt[1].isEmpty)
        #expect(!strategy.pruned)
    }

    /// Each step's footprint holds what the step did: the App Group key its task announced, as a
    /// read or a write, the actor it ran on; a step that only read commutes with another
    /// process's read of the same key and not with its write.
    @Test func aStepsFootprintHoldsTheKeyItReadOrWrote() throws {
        let outcome = ScenarioRunner.run(
            try shippedScenario("clarity-stale-verification-fixed"), strategy: BoundedSearch.SleepingStrategy(prefix: []))
        #expect(outcome.passed)
        var checked = (reads: 0, writes: 0)
        for decision in outcome.decisionLog {
            guard let operation = decision.candidates.first(where: { $0.task == decision.chosen })?.operation,
                operation.object.hasPrefix("group."), let key = operation.item, ["read", "write"].contains(operation.verb)
            else { continue }
            let step = outcome.stepFootprints[decision.index]
            let writes = operation.verb == "write"
            #expect(step.accesses.contains(Access(operation.object, key, writes: writes)), "\(operation): \(step.accesses)")
            #expect(!step.accesses.contains(Access(operation.object, key, writes: !writes)), "\(operation)")
            if writes { checked.writes += 1 } else { checked.reads += 1 }
            let otherRead = Footprint([Access(operation.object, key, writes: false)])
            #expect(step.conflicts(with: otherRead) == writes)
        }
        #expect(checked.reads > 5 && checked.writes >= 2, "\(checked)")
        let monitorStep = try #require(
            outcome.decisionLog.first { decision in
                decision.candidates.contains { $0.task == decision.chosen && $0.operation?.verb == "deliver" }
            })
        #expect(outcome.stepFootprints[monitorStep.index].accesses.contains(Access("actor clarity.monitor", writes: true)))
    }
}
