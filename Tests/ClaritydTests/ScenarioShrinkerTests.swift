import BuiltInApps
import ControlProtocol
import Foundation
import ScenarioFiles
import Testing

@testable import ClarityDaemon
@testable import DeviceActors

/// Shrinking the scenario too (issue 42, item 2): the first failure of an exploration asked to
/// (`shrinkScenario`) carries the scenario without the steps and branches it does not need — a
/// scenario file the daemon reads like any other, whose exploration fails the same way.
@Suite struct ScenarioShrinkerTests {
    private static func document(_ name: String) throws -> JSONValue {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../config/scenarios/\(name).json").standardizedFileURL
        return try JSONWire.decode(JSONValue.self, from: Data(contentsOf: url))
    }

    private static func explore(_ document: JSONValue) throws -> ExplorationReport {
        let scenario = try ScenarioFile.scenario(from: document, catalog: .builtIn)
        return ScenarioExplorer.explore(
            scenario, plan: ExplorationPlan(strategy: .pct, schedules: 300), build: BuildInfo(version: "test", revision: nil))
    }

    @Test func theStaleVerificationShrinksToAScenarioThatFailsTheSameWay() throws {
        let document = try Self.document("clarity-stale-verification")
        let report = try Self.explore(document)
        let found = try #require(report.failures.first)
        let answer = ScenarioShrinker.attach(
            to: try JSONWire.value(report), report: report, document: document, catalog: .builtIn, interruption: { false })
        let shrunk = try #require(answer["failures"]?.arrayValue?.first?["shrunkScenario"], "no shrunk scenario")
        let before = document["steps"]?.arrayValue?.count ?? 0
        let after = shrunk["steps"]?.arrayValue?.count ?? 0
        #expect(after < before, "\(after) steps of \(before)")
        // Written and read back as a file is: it explores to the same failure.
        let again = try Self.explore(try JSONWire.decode(JSONValue.self, from: Data(try JSONWire.bytes(shrunk))))
        let failure = try #require(again.failures.first, "the shrunk scenario no longer fails")
        #expect(failure.invariant == found.invariant && failure.kind == found.kind)
        #expect(failure.step.flatMap(ScenarioShrinker.stepIndex) == after - 1, "the failing step, renumbered: \(failure.step ?? "-")")
    }

    /// A failure's step names the file's step by its index, which changes as steps go.
    @Test func aStepIndexIsReadAndRenumberedInAFailuresStep() {
        #expect(ScenarioShrinker.stepIndex("steps[10]") == 10)
        #expect(ScenarioShrinker.stepIndex("steps[9].parallel[1][0]") == 9)
        #expect(ScenarioShrinker.stepIndex(nil) == nil)
        #expect(ScenarioShrinker.renumber("steps[9].parallel[1][0]", to: 3) == "steps[3].parallel[1][0]")
    }
}
