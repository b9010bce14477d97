import ControlProtocol
import Foundation
import RunReport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--html FILE` of `run` and `replay` (and `--html FILE|DIR` of `explore`): where to write the
/// run as one self-contained HTML page (``RunReportPage``, docs/report.md), drawn from the answer
/// to `scenario.run` / `scenario.replay` with `report: true`.
struct HTMLReportFile {
    static let helpLine = "  --html FILE           write the run as one self-contained HTML report to FILE"

    let path: String

    /// Takes `--html FILE` if given.
    static func take(from arguments: inout Arguments) throws -> HTMLReportFile? {
        try OutputFile.take("--html", from: &arguments).map { HTMLReportFile(path: $0.path) }
    }

    /// A usage error, before anything is asked of the daemon, when the file's directory is not
    /// there or the path is a directory.
    func check() throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw UsageError("--html \(path): no directory \(directory) to write it in")
        }
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw UsageError("--html \(path): is a directory")
        }
    }

    /// Writes the page of `result` (an answer with `report`) and says so on stderr (stdout
    /// keeps the result). `replayCommand` is the header's, for a failure.
    func write(from result: JSONValue, scenario: ScenarioFile, replayCommand: [String]?) throws {
        let page: RunReportPage
        do {
            page = try RunReportPage(
                answer: result,
                context: .init(scenario: Self.name(of: scenario), replayCommand: replayCommand.map(ShellWords.line)))
        } catch {
            throw OutputFileError(path: path, reason: "--html: \(error)")
        }
        do {
            try OutputFile(path: path).write(Array(page.html().utf8))
        } catch let error as OutputFileError {
            throw OutputFileError(path: path, reason: "--html: \(error.reason)")
        }
        let steps = result["report"]?["steps"]?.arrayValue?.count ?? 0
        fflush(nil)  // what was printed before stays before this line in a shared log
        FileHandle.standardError.write(Data("wrote the report (\(steps) steps) to \(path)\n".utf8))
    }

    /// The scenario's `name`, else its file's name without `.json`.
    static func name(of scenario: ScenarioFile) -> String {
        scenario.scenario["name"]?.stringValue
            ?? (URL(fileURLWithPath: scenario.path).lastPathComponent as NSString).deletingPathExtension
    }

    /// The command that replays the schedule `token` of `scenario` on `daemon`.
    static func replayCommand(token: String?, scenario: ScenarioFile, daemon: ScenarioDaemon, quirks: [String]) -> [String]? {
        guard let token else { return nil }
        return ["clarityctl", "replay", scenario.path] + daemon.words + ["--schedule", token]
            + quirks.sorted().flatMap { ["--quirk", $0] }
    }
}
