import BuiltInApps
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import DeviceActors

/// How likely a counterexample is (issue 41): Clarity's stale verification fails on PCT's
/// schedule 13 first, which (shrunk) needs the app to pause 38 ms before its Wi-Fi look-up while
/// the monitor's callbacks launch — possible, not likely — and on schedule 54 with no
/// preemption at all: the likely direction of the same race. The report shows the likely one
/// first, then the one found first.
@Suite struct SchedulePlausibilityTests {
    private static func staleVerification() throws -> Scenario {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../config/scenarios/clarity-stale-verification.json")
        return try Scenario(contentsOf: file, apps: AppRegistration.builtIn)
    }

    private static func explore(_ scenario: Scenario, plausibleOnly: Bool = false, jobs: Int = 1) -> ExplorationReport {
        var plan = ExplorationPlan(strategy: .pct, schedules: 200, jobs: jobs)
        plan.scenarioHash = scenario.hash
        plan.plausibleOnly = plausibleOnly
        return ScenarioExplorer.explore(scenario, plan: plan, build: BuildInfo(version: "test", revision: nil))
    }

    @Test func theDefaultReportShowsTheLikelyCounterexampleFirst() throws {
        let scenario = try Self.staleVerification()
        let report = Self.explore(scenario)
        #expect(report.failures.map(\.scheduleIndex) == [78, 7])
        let likely = try #require(report.failures.first)
        let stalled = try #require(report.failures.last)
        #expect(likely.isSameFailure(as: stalled))
        #expect(likely.plausibility == .likely)
        #expect(likely.preemptions == 1)
        #expect(likely.stalls.allSatisfy { $0.likely }, "its one preemption fits in a scheduler quantum")
        #expect(likely.lessPlausibleSeen == 12)
        #expect(stalled.plausibility == .needsAStall)
        #expect(stalled.stalls.filter { !$0.likely }.map(\.text) == [
            "needs clarity.app to pause ≥ 133.48 ms before read NEHotspotNetwork/ssid",
            "needs clarity.monitor#3 to pause ≥ 100.46 ms before return eventDidReachThreshold",
            "needs clarity.app to pause ≥ 31 ms between two App Group calls",
        ])
        #expect(likely.description.contains("How likely: likely (12 less plausible schedule(s) of this failure seen)"))
        #expect(stalled.likelihood.hasPrefix("needs a stall; needs clarity.app to pause ≥ 133.48 ms before read NEHotspotNetwork/ssid"))
        // Run up to the likely one: 108 schedules, of which 14 failed, the first at 7.
        #expect(report.schedules == 108)
        #expect(report.failed == 14)
        #expect(report.firstFailingSeed == 7)
    }

    @Test func bothTokensReplayTheirScheduleAndItsPlausibility() throws {
        let scenario = try Self.staleVerification()
        let report = Self.explore(scenario)
        #expect(report.failures.count == 2)
        for failure in report.failures {
            let replayed = #expect(throws: ExplorationFailed.self) { try scenario.replay(schedule: failure.schedule) }
            #expect(replayed?.reason.step == failure.step)
            let token = try ScheduleToken.parse(failure.schedule).get()
            let outcome = ScenarioRunner.run(scenario, replaying: .deviations(token.deviations, faults: token.faults))
            let again = SchedulePlausibility(outcome)
            #expect(again.plausibility == failure.plausibility)
            #expect(again.stalls.map(\.text) == failure.stalls.map(\.text))
        }
    }

    /// The window past the first failure is counted in schedule indexes: four jobs, finishing
    /// out of order, report what one does.
    @Test func theReportDoesNotDependOnJobs() throws {
        let report = Self.explore(try Self.staleVerification(), jobs: 4)
        #expect(report.failures.map(\.scheduleIndex) == [78, 7])
        #expect(report.failures.map(\.plausibility) == [.likely, .needsAStall])
        #expect(report.schedules == 108 && report.failed == 14 && report.covered == 108)
    }

    /// Judged as found (before shrinking), every failing schedule of the first 200 needs a
    /// stall: `--plausible` sets all 24 aside and reports none (schedule 78 is likely only once
    /// shrunk).
    @Test func plausibleOnlySetsTheStalledSchedulesAside() throws {
        let report = Self.explore(try Self.staleVerification(), plausibleOnly: true)
        #expect(report.failures.isEmpty)
        #expect(report.implausible == 24)
        #expect(report.failed == 0)
        #expect(report.schedules == 200)
    }
}

extension ExplorationFailure {
    fileprivate func isSameFailure(as other: ExplorationFailure) -> Bool {
        step == other.step && invariant == other.invariant && kind == other.kind
    }
}
