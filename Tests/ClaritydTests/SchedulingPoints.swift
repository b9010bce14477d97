import DeviceActors
import ExtensionSandbox
import Foundation

/// config/scheduling-points.json: the decisions every shipped scenario (config/scenarios) makes
/// under its own schedule and under one fixed PCT seed, for the replay tokens of one
/// ``ScheduleToken/version``. A token names decisions by their number, so these counts are an
/// API (docs/runtime.md, "Scheduling points are an API"): a change that moves them changes what
/// every token made before means.
struct SchedulingPoints: Codable, Equatable {
    /// What one scenario's two schedules make, as `clarityctl run FILE` and `clarityctl replay
    /// FILE --seed <seed> --strategy pct --depth <depth>` print them.
    struct Counts: Codable, Equatable, CustomStringConvertible {
        /// Decisions of the scenario's own schedule (FIFO, no faults).
        var fifoDecisions: Int
        /// Its preemptions (switches away from a task that could have gone on): a move can keep
        /// the number of decisions and change these.
        var fifoPreemptions: Int
        /// Decisions of the PCT schedule of ``SchedulingPoints/pct``'s seed and depth.
        var pctDecisions: Int

        var description: String { "FIFO \(fifoDecisions) decisions, \(fifoPreemptions) preemptions; PCT \(pctDecisions) decisions" }
    }

    /// The PCT schedule counted: a seed and a depth, its expected decisions the FIFO count.
    struct PCTSeed: Codable, Equatable {
        var seed: UInt64
        var depth: Int
    }

    /// Where to read about it, for whoever opens the file.
    var about =
        "Decisions of each config/scenarios file's own (FIFO) schedule and of one PCT seed. The scheduling points are an API: "
        + "docs/runtime.md, \"Scheduling points are an API\"."
    /// The ``ScheduleToken/version`` these counts hold for.
    var scheduleTokenVersion: String
    var pct: PCTSeed
    /// Per scenario file, by its name without `.json`.
    var scenarios: [String: Counts]

    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../config/scheduling-points.json").standardizedFileURL
    static let scenarioDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../config/scenarios").standardizedFileURL

    /// The shipped scenario files' names, without `.json`, sorted.
    static func shippedNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: scenarioDirectory.path)
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(".json".count)) }.sorted()
    }

    static func read() throws -> SchedulingPoints {
        try JSONDecoder().decode(SchedulingPoints.self, from: Data(contentsOf: file))
    }

    /// Writes the file whole (a rename over the old one), keys sorted so a diff shows what moved.
    func write() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try (encoder.encode(self) + Data("\n".utf8)).write(to: Self.file, options: .atomic)
    }

    /// What the scenario `name` makes now, run in process as the daemon runs it.
    static func measure(_ name: String, pct: PCTSeed) throws -> Counts {
        let scenario = try shippedScenario(name)
        let fifo = ScenarioRunner.run(scenario, strategy: FIFOStrategy())
        let seed = ScheduleSeed(strategy: .pct, seed: pct.seed, depth: pct.depth, expectedDecisions: fifo.decisions)
        let pctRun = ScenarioRunner.run(scenario, seed: seed, faults: scenario.faults)
        return Counts(fifoDecisions: fifo.decisions, fifoPreemptions: fifo.preemptions, pctDecisions: pctRun.decisions)
    }
}
