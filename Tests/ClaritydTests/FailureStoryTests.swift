import ExtensionSandbox
import Foundation
import Testing

@testable import DeviceActors

/// The story of a failing schedule explains it (issue 42, item 1): after the switches, the
/// causal chain to the broken condition — for a lost update the read, the other process's write
/// and the write that lost it, with values — and the reads whose writer differs from the
/// sequential run's; and every preemption the shrunk schedule keeps is one the failure needs.
@Suite struct FailureStoryTests {
    /// The shipped scenarios that pin a race (`expectFailure`) found by PCT within 300 schedules.
    static let races = ["clarity-stale-verification", "scrollkitty-concurrent-bypass"]

    private static func failure(_ name: String, schedules: Int = 300) throws -> (Scenario, ExplorationFailure) {
        let scenario = try shippedScenario(name)
        let report = ScenarioExplorer.explore(
            scenario, plan: ExplorationPlan(strategy: .pct, schedules: schedules), build: BuildInfo(version: "test", revision: nil))
        let failure = try #require(report.failures.first, "\(name): no failing schedule in \(schedules)")
        return (scenario, failure)
    }

    /// ScrollKitty's read-modify-write variant loses an update: the story names the read and the
    /// value it saw, the other process's write that landed after it, and the write over it.
    @Test func aLostUpdateIsToldAsTheReadTheOtherWriteAndTheWriteOverIt() throws {
        let (_, failure) = try Self.failure("scrollkitty-concurrent-bypass")
        #expect(failure.causalChain.map(\.role) == [.read, .interleavedWrite, .losingWrite])
        let (read, other, losing) = (failure.causalChain[0], failure.causalChain[1], failure.causalChain[2])
        #expect(read.actor == losing.actor && other.actor != losing.actor)
        #expect(read.key == other.key && other.key == losing.key)
        #expect(read.seq < other.seq && other.seq < losing.seq)
        #expect(losing.value != nil && other.value != nil)
        let because = try #require(failure.story.first { $0.hasPrefix("because: lost update: ") }, "\(failure.story)")
        #expect(because.contains("\(read.actor) read \(read.key) = "))
        #expect(because.contains("over it (seq \(losing.seq))"))
    }

    /// Clarity's stale verification breaks an invariant that names the trace entry it judged:
    /// the story shows the last writes up to that entry — the monitor's write of the verified
    /// flag — not the app's writes after it.
    @Test func aBrokenInvariantIsToldAsTheLastWritesBeforeWhatItJudged() throws {
        let (_, failure) = try Self.failure("clarity-stale-verification")
        let judged = try #require(CausalChain.judgedSequence(failure.message), "\(failure.message)")
        let writes = failure.causalChain.filter { $0.role == .lastWrite }
        #expect(!writes.isEmpty && writes.allSatisfy { $0.seq <= judged }, "\(failure.causalChain)")
        #expect(writes.contains { $0.actor == "clarity.monitor" && $0.key.hasSuffix("/prosocialChallengeVerified") && $0.value == "true" })
        #expect(failure.story.contains { $0.hasPrefix("because: from: ") }, "\(failure.story)")
    }

    /// A jetsam at the monitor's write of the next friction layer: the story ends with the
    /// fault that cut the write, after the last write of the key the `expect` checked.
    @Test func aFailureAFaultCausedEndsWithTheFault() throws {
        let scenario = try shippedScenario("clarity-friction-under-faults")
        let outcome = ScenarioRunner.run(scenario, replaying: .deviations([], faults: [FaultSite(.jetsam, at: 7)]))
        let explanation = try #require(FailureExplanation(outcome, of: scenario))
        let links = explanation.chain.links
        #expect(links.last?.role == .fault && links.last?.key == "write group.com.clarity.focus/frictionLevel", "\(links)")
        #expect(links.dropLast().last?.key == "group.com.clarity.focus/frictionLevel" && links.dropLast().last?.value == "1")
        #expect(explanation.lines.first?.hasSuffix("→ clarity.monitor FAULT jetsam at write group.com.clarity.focus/frictionLevel (seq 26)") == true)
    }

    /// Against the sequential run, some read saw another write: the diff names it by actor, key
    /// and which of the actor's reads of the key it is, with both writers. (Reads are traced in
    /// extensions, and in the main app with the race detector on: ScrollKitty's race has both.)
    @Test func theStorySaysWhichReadsSawAnotherWriteThanTheSequentialRun() throws {
        let (_, failure) = try Self.failure("scrollkitty-concurrent-bypass")
        #expect(!failure.readsFromDiff.isEmpty)
        #expect(failure.story.contains("reads that differ from the sequential run:"), "\(failure.story)")
        #expect(failure.story.contains { $0.contains("where the sequential run read") || $0.contains("did not happen") })
    }

    /// After shrinking, no deviation can go under the shrinker's rules: the schedule without any
    /// one of them passes, diverges, fails another way, or needs more preemptions or a longer
    /// stall (then the deviation is a free pick that keeps a later one from being a preemption).
    @Test(arguments: races) func everyDeviationTheShrunkScheduleKeepsIsNeeded(_ name: String) throws {
        let (scenario, failure) = try Self.failure(name)
        let token = try ScheduleToken.parse(failure.schedule).get()
        let reason = ScenarioFailureReason(
            message: failure.message, step: failure.step, invariant: failure.invariant, kind: failure.kind)
        #expect(!token.deviations.isEmpty, "a race needs a deviation")
        let shrunk = SchedulePlausibility(
            ScenarioRunner.run(scenario, replaying: .deviations(token.deviations, faults: token.faults), quirks: failure.quirks))
        for dropped in token.deviations.indices {
            var fewer = token.deviations
            fewer.remove(at: dropped)
            let outcome = ScenarioRunner.run(
                scenario, replaying: .deviations(fewer, faults: token.faults), quirks: failure.quirks)
            let same = outcome.divergence == nil && outcome.failure?.isSameFailure(as: reason) == true
            let asGood = outcome.preemptions <= failure.preemptions && !(shrunk < SchedulePlausibility(outcome))
            #expect(!(same && asGood), "\(name): deviation \(token.deviations[dropped]) is not needed")
        }
    }
}
