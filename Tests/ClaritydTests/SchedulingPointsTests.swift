import DeviceActors
import Foundation
import Testing

/// The scheduling points are a declared API (docs/runtime.md, "Scheduling points are an API"):
/// every shipped scenario makes the decisions config/scheduling-points.json declares, for the
/// replay tokens of the current ``ScheduleToken/version``. A change that moves them fails here,
/// at the scenario, until the version is bumped and the move written down; then
/// `CLARITY_UPDATE_GOLDEN=1` rewrites the file.
@Suite struct SchedulingPointsTests {
    static let regenerate = "CLARITY_UPDATE_GOLDEN=1 swift test --filter SchedulingPointsTests"
    static let procedure =
        "scheduling points moved: bump ScheduleToken.version (replay tokens made before no longer replay) and add a line to "
        + "docs/runtime.md's scheduling-points history; regenerate the file with \(regenerate)"

    @Test func everyShippedScenarioMakesTheDecisionsTheFileDeclares() throws {
        let declared = Result { try SchedulingPoints.read() }
        let previous = try? declared.get()
        let pct = previous?.pct ?? SchedulingPoints.PCTSeed(seed: 13, depth: 3)
        let names = try SchedulingPoints.shippedNames()
        var measured: [String: SchedulingPoints.Counts] = [:]
        for name in names {
            do {
                measured[name] = try SchedulingPoints.measure(name, pct: pct)
            } catch {
                Self.fail("config/scenarios/\(name).json cannot be run: \(error)")
            }
        }
        let moved = names.compactMap { name -> String? in
            guard let old = previous?.scenarios[name], let new = measured[name], old != new else { return nil }
            return "\(name): \(old) → \(new)"
        }
        let versionBumped = previous?.scheduleTokenVersion != ScheduleToken.version
        if ProcessInfo.processInfo.environment["CLARITY_UPDATE_GOLDEN"] == "1" {
            guard measured.count == names.count else { return }
            guard moved.isEmpty || versionBumped else {
                Self.fail(
                    "not rewritten: ScheduleToken.version is still \(ScheduleToken.version) while the scheduling points moved "
                        + "(\(moved.joined(separator: "; "))): bump it and add a line to docs/runtime.md's scheduling-points history first")
                return
            }
            try SchedulingPoints(scheduleTokenVersion: ScheduleToken.version, pct: pct, scenarios: measured).write()
            return
        }
        let file: SchedulingPoints
        switch declared {
        case .success(let read): file = read
        case .failure(let error):
            return Self.fail("\(SchedulingPoints.file.path) cannot be read (\(error)); regenerate it with \(Self.regenerate)")
        }
        if file.scheduleTokenVersion != ScheduleToken.version {
            Self.fail(
                "the file declares the decisions of tokens \(file.scheduleTokenVersion), but ScheduleToken.version is "
                    + "\(ScheduleToken.version): regenerate it with \(Self.regenerate)")
        }
        for name in names {
            guard let old = file.scenarios[name] else {
                Self.fail(
                    "config/scenarios/\(name).json has no entry in config/scheduling-points.json: add it with \(Self.regenerate)")
                continue
            }
            if let new = measured[name], new != old { Self.fail("\(name): \(old) → \(new): \(Self.procedure)") }
        }
        for name in file.scenarios.keys.sorted() where !names.contains(name) {
            Self.fail(
                "config/scheduling-points.json declares \(name), but config/scenarios/\(name).json does not exist: "
                    + "remove it with \(Self.regenerate)")
        }
    }

    /// Records a failure whose message is built of several lines of source.
    private static func fail(_ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }

    /// A version without its line in the history is a move nobody wrote down.
    @Test func theHistoryInDocsRuntimeNamesTheCurrentVersion() throws {
        let runtime = try String(
            contentsOf: SchedulingPoints.file.deletingLastPathComponent().appendingPathComponent("../docs/runtime.md").standardizedFileURL,
            encoding: .utf8)
        let historyVersions = runtime.split(separator: "\n").filter { $0.hasPrefix("| v") && $0.dropFirst(3).first?.isNumber == true }
            .map { $0.split(separator: "|").first?.trimmingCharacters(in: .whitespaces) ?? "" }
        #expect(
            historyVersions.contains(ScheduleToken.version),
            "docs/runtime.md's scheduling-points history has no line for ScheduleToken.version \(ScheduleToken.version)")
    }
}
