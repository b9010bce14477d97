import Foundation
import Testing

@testable import DeviceActors

/// Random and PCT explorations say what they covered (issue 42, item 5): the interleavings
/// (reads-from classes) their schedules showed, how many are new lately, and Good–Turing's
/// chance that the next schedule shows a new one — the same for a seed range however many jobs
/// ran it.
@Suite struct InterleavingCoverageTests {
    private static func coverage(_ strategy: ExplorationPlan.StrategyKind, jobs: Int) throws -> ExplorationCoverage? {
        var plan = ExplorationPlan(strategy: strategy, schedules: 200, stopAtFirst: false, jobs: jobs)
        plan.preemptionBound = 0
        return ScenarioExplorer.explore(
            try shippedScenario("scrollkitty-concurrent-bypass-fixed"), plan: plan, build: BuildInfo(version: "test", revision: nil)
        ).coverage
    }

    @Test(arguments: [ExplorationPlan.StrategyKind.pct, .random])
    func coverageCountsInterleavingsTheSameWhateverTheJobs(_ strategy: ExplorationPlan.StrategyKind) throws {
        let one = try #require(try Self.coverage(strategy, jobs: 1))
        let two = try Self.coverage(strategy, jobs: 2)
        #expect(two == one)
        #expect(one.schedules == 200 && one.recentSchedules == 20)
        #expect(one.interleavings > 1 && one.interleavings <= 200, "\(one)")
        #expect(one.seenOnce <= one.interleavings && one.newInRecent <= one.interleavings)
        #expect(one.newInterleavingChance == Double(one.seenOnce) / 200)
    }

    /// `dfs` counts what it proves in its own terms (`exhaustive`, `bound`): no coverage.
    @Test func aBoundedSearchReportsNoCoverage() throws {
        #expect(try Self.coverage(.dfs, jobs: 1) == nil)
    }

    /// Two runs are one interleaving when every read saw the same write, whatever their seqs.
    @Test func theClassOfARunDependsOnWhoWroteWhatEachReadSawNotOnSeqs() throws {
        let scenario = try shippedScenario("scrollkitty-concurrent-bypass-fixed")
        let sequential = ReadsFrom(ScenarioRunner.run(scenario, replaying: .deviations([])))
        let again = ReadsFrom(ScenarioRunner.run(scenario, replaying: .deviations([])))
        #expect(!sequential.reads.isEmpty)
        #expect(sequential.classHash == again.classHash)
        #expect(sequential.difference(from: again).isEmpty)
    }
}
