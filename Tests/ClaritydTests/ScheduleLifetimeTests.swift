import BuiltInApps
import Clarity
import ControlProtocol
import ExtensionSandbox
import Foundation
import ScenarioFiles
import Testing

@testable import ClarityDaemon
@testable import DeviceActors

/// Every schedule of an exploration builds a device; once the schedule's outcome is let go of,
/// nothing of that device may be left, or a long exploration grows the daemon without end: five
/// `dfs` runs at bound 1 of Clarity's fixed variant grew it by 64 MB each, and `--bound 10` ended
/// under the OOM killer (issue 38).
@Suite struct ScheduleLifetimeTests {
    /// A schedule stopped mid-run — `dfs` cuts one short as soon as it repeats an order already
    /// run, a replay stops where it diverges — leaves tasks behind, and they hold the device's
    /// actors.
    @Test func aScheduleStoppedMidRunLetsGoOfItsDevice() throws {
        let scenario = try shippedScenario("clarity-stale-verification-fixed")
        let first = ScenarioRunner.run(scenario, strategy: FIFOStrategy())
        let middle = try #require(first.decisionLog.dropFirst(first.decisionLog.count / 2).first)
        weak var world: World?
        do {
            let stopped = ScenarioRunner.run(
                scenario, replaying: .deviations([ScheduleDeviation(decision: middle.index, task: 10_000)]))
            #expect(stopped.divergence?.contains("task 10000") == true, "\(stopped.divergence ?? "no divergence")")
            world = stopped.device?.world
            #expect(world?.scheduler.hasStrandedTasks == true)
        }
        #expect(world == nil, "the stopped schedule's device is still alive")
    }

    /// A scenario with `failOnRace` runs with the App Group's race detector on: the reads it
    /// kept held their callbacks' contexts, whose sandboxes hold the App Group that holds the
    /// detector, so every schedule kept its device, passed or not.
    @Test(arguments: ["scrollkitty-double-tap", "scrollkitty-concurrent-bypass-fixed"])
    func aScheduleWithTheRaceDetectorOnLetsGoOfItsDevice(_ name: String) throws {
        let scenario = try shippedScenario(name)
        #expect(scenario.failOnRace)
        weak var world: World?
        do {
            let outcome = ScenarioRunner.run(scenario, strategy: FIFOStrategy())
            world = outcome.device?.world
            #expect(world != nil)
        }
        #expect(world == nil, "the schedule's device is still alive")
    }
}

extension ScheduleLifetimeTests {
    /// What every schedule of an exploration shares — the app's settings decoded once, the
    /// local days computed once per zone (docs/performance.md, issue 42) — holds no device: a
    /// PCT schedule run after another, which finds them remembered, lets go of its device too.
    @Test func aScheduleFindingTheSharedAnswersLetsGoOfItsDevice() throws {
        let scenario = try shippedScenario("clarity-stale-verification-fixed")
        weak var world: World?
        do {
            let first = ScenarioRunner.run(scenario, seed: ScheduleSeed(strategy: .pct, seed: 1, depth: 3, expectedDecisions: 33))
            let second = ScenarioRunner.run(scenario, seed: ScheduleSeed(strategy: .pct, seed: 2, depth: 3, expectedDecisions: 33))
            #expect(first.passed && second.passed)
            world = second.device?.world
            #expect(world != nil)
        }
        #expect(world == nil, "the schedule's device is still alive")
    }
}

extension ScheduleLifetimeTests {
    /// A caller who goes away stops a run even in the middle of one long step: the interruption
    /// was asked only between steps and before each instant timers fire, so a `parallel` step
    /// whose branches all wake at one instant ran to its end with nobody waiting (issue 38).
    @Test func aRunIsInterruptedInsideALongStep() throws {
        let scenario = Scenario(
            name: "crowd", app: .clarity, start: Date(timeIntervalSince1970: 1_767_603_600),
            timeZone: TimeZone(identifier: "UTC")!, timeZoneName: "UTC", seed: 0, config: DeviceConfig(),
            steps: [.parallel(Array(repeating: [.advance(seconds: 1)] + Array(repeating: [.event(.lock), .event(.unlock)], count: 4).flatMap { $0 }, count: 100))],
            invariants: [])
        let whole = ScenarioRunner.run(scenario, strategy: FIFOStrategy())
        #expect(whole.passed)
        // Says stop from its third look on: once before the step, once before the branches'
        // instant, then only inside the drive.
        let looks = LookCounter()
        let stopped = ScenarioRunner.run(scenario, strategy: FIFOStrategy(), interruption: { looks.next() >= 3 })
        #expect(stopped.interrupted)
        #expect(stopped.steps < whole.steps / 2, "\(stopped.steps) of \(whole.steps) jobs ran")
    }
}

/// Counts the looks of an interruption (it is asked on the run's thread only).
private final class LookCounter: @unchecked Sendable {
    private var looks = 0

    func next() -> Int {
        looks += 1
        return looks
    }
}
