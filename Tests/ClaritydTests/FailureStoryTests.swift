import ExtensionSandbox
import Foundation
import Testing

@testable import DeviceActors

/// The story of a failing schedule explains it (issue 42, item 1): after the switches, the
/// causal chain to the broken condition — for a lost update the read, the other process's write
/// and the write that lost it, with values — and the reads whose writer differs from the
/// sequential run's; and every preemption the shrunk schedule keeps is one the failure needs.
@Suite struct FailureStoryTests {
    /// Every shipped scenario that pins a race (`expectFailure`), read off config/scenarios:
    /// one added there is checked here too.
    static let races: [String] = {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../config/scenarios").standardizedFileURL
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".json") }.sorted().compactMap { file in
            guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(file).path),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                object["expectFailure"] as? Bool == true
            else { return nil }
            return String(file.dropLast(".json".count))
        }
    }()

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
        #expect(failure.story.contains { $0.hasPrefix("because: ") && $0.contains("; from: → ") }, "\(failure.story)")
    }

    /// The main app's reads are traced in a scenario's schedules (issue 42 item 1, gap 1): the
    /// story of Clarity's race starts from the app's stale read of the verified flag, which the
    /// monitor wrote for the skipped challenge, just before the app verified the new one — and
    /// the reads-from diff names that read, with both values.
    @Test func theStoryStartsFromTheMainAppsStaleReadThatLedToTheFailure() throws {
        let (_, failure) = try Self.failure("clarity-stale-verification")
        let judged = try #require(CausalChain.judgedSequence(failure.message))
        let key = "group.com.clarity.focus/prosocialChallengeVerified"
        let read = try #require(
            failure.causalChain.last { $0.role == .read && $0.actor == "clarity.app" && $0.key == key }, "\(failure.causalChain)")
        #expect(read.value == "true" && read.seq < judged)
        let because = try #require(failure.story.first { $0.hasPrefix("because: ") })
        #expect(
            because.hasPrefix("because: clarity.app read \(key) = true (seq \(read.seq)), which clarity.monitor wrote (seq "),
            "\(because)")
        let change = try #require(failure.readsFromDiff.first { $0.actor == "clarity.app" && $0.key == key }, "\(failure.readsFromDiff)")
        #expect(change.writer == "clarity.monitor" && change.sequentialWriter == "clarity.app")
        #expect(failure.story.contains { $0.contains("read of \(key) read seq") && $0.hasSuffix("= false") }, "\(failure.story)")
    }

    /// Every App Group read of a scenario's schedule carries what it returned (gap 2): the
    /// trace's `store.read` has `value` (`null` for an absent key), the main app's too, and the
    /// story prints it.
    @Test func everyReadOfAScheduleCarriesItsValueAndTheStoryPrintsIt() throws {
        let scenario = try shippedScenario("clarity-stale-verification")
        let outcome = ScenarioRunner.run(scenario, replaying: .deviations([]))
        let trace = try #require(
            try JSONSerialization.jsonObject(with: Data(ScenarioOutcome.json(outcome.trace).utf8)) as? [[String: Any]])
        let reads = trace.filter { $0["kind"] as? String == "store.read" }
        #expect(!reads.isEmpty && reads.allSatisfy { $0.keys.contains("value") }, "\(reads.prefix(3))")
        #expect(reads.contains { $0["actor"] as? String == "clarity.app" && $0["key"] as? String == "prosocialChallengeVerified" })
        let (_, failure) = try Self.failure("clarity-stale-verification")
        #expect(failure.story.contains { $0.contains("clarity.app  read group.com.clarity.focus/prosocialEnabled = true") }, "\(failure.story)")
    }

    /// Data that holds JSON prints as what it holds (gap 3): ScrollKitty's `appHealthData` is
    /// `{"…":{"hp":50,…` in the story and the chain, not a base64 `$data` object.
    @Test func dataHoldingJSONPrintsAsWhatItHolds() throws {
        let (_, failure) = try Self.failure("scrollkitty-concurrent-bypass")
        let health = failure.story.filter { $0.contains("appHealthData = ") }
        #expect(!health.isEmpty && health.allSatisfy { !$0.contains("$data") && $0.contains("\"hp\":") }, "\(health)")
        #expect(failure.causalChain.allSatisfy { !($0.value ?? "").contains("$data") }, "\(failure.causalChain)")
    }

    /// A scenario whose own (FIFO) schedule fails: `explore` counts FIFO's turns as switches,
    /// not preemptions, as `scenario.run` does (gap 5).
    @Test func exploringAScenarioWhoseOwnScheduleFailsCountsFIFOsTurnsAsSwitches() throws {
        let (_, failure) = try Self.failure("scrollkitty-concurrent-bypass")
        #expect(failure.scheduleIndex == -1 && failure.strategy == .fifo)
        let answer = try #require(
            try JSONSerialization.jsonObject(with: Data(ScenarioOutcome.json(failure).utf8)) as? [String: Any])
        #expect(answer["preemptions"] as? Int == 0 && answer["originalPreemptions"] as? Int == 0, "\(answer["preemptions"] ?? "")")
        #expect((answer["switches"] as? Int ?? 0) > 0)
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
        #expect(explanation.lines.first?.hasSuffix("→ clarity.monitor FAULT jetsam at write group.com.clarity.focus/frictionLevel (seq 36)") == true)
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
    /// Every shipped race, its faults too; a race found in the scenario's own (FIFO) schedule
    /// keeps FIFO's turns, which the same rule checks.
    @Test(arguments: races) func everyDeviationTheShrunkScheduleKeepsIsNeeded(_ name: String) throws {
        let (scenario, failure) = try Self.failure(name)
        let token = try ScheduleToken.parse(failure.schedule).get()
        let reason = ScenarioFailureReason(
            message: failure.message, step: failure.step, invariant: failure.invariant, kind: failure.kind)
        #expect(!token.deviations.isEmpty || !token.faults.isEmpty || failure.scheduleIndex == -1, "a race needs a deviation")
        let shrunk = ScenarioRunner.run(scenario, replaying: .deviations(token.deviations, faults: token.faults), quirks: failure.quirks)
        let removals =
            token.deviations.indices.map { index in
                var fewer = token.deviations
                fewer.remove(at: index)
                return ("deviation \(token.deviations[index])", fewer, token.faults)
            }
            + token.faults.indices.map { index in
                var fewer = token.faults
                fewer.remove(at: index)
                return ("fault \(token.faults[index])", token.deviations, fewer)
            }
        for (removed, deviations, faults) in removals {
            let outcome = ScenarioRunner.run(scenario, replaying: .deviations(deviations, faults: faults), quirks: failure.quirks)
            let same = outcome.divergence == nil && outcome.failure?.isSameFailure(as: reason) == true
            let asGood =
                outcome.preemptions <= shrunk.preemptions && !(SchedulePlausibility(shrunk) < SchedulePlausibility(outcome))
            #expect(!(same && asGood), "\(name): \(removed) is not needed")
        }
    }

    /// The story says why each deviation stays (gap 4): Clarity's shrunk schedule keeps free
    /// picks — switches that set no process aside — and each switch line says what the schedule
    /// does without it (diverges, needs more preemptions, a less plausible stall).
    @Test func everyKeptDeviationSaysWhyItStays() throws {
        let (_, failure) = try Self.failure("clarity-stale-verification")
        let token = try ScheduleToken.parse(failure.schedule).get()
        for deviation in token.deviations {
            let line = try #require(
                failure.story.first { $0.hasPrefix("⇄ decision \(deviation.decision):") }, "\(deviation) \(failure.story)")
            #expect(line.contains(" — kept: without it "), "\(line)")
        }
        #expect(!failure.story.contains { $0.contains("not needed") }, "\(failure.story)")
    }
}
