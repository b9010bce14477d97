import ControlProtocol
import Foundation

/// `--shrunk-scenario FILE` of `explore`: asks the daemon to shrink the scenario too
/// (`shrinkScenario`) and writes the first failure's `shrunkScenario` — the scenario without the
/// steps and branches the failure does not need, a scenario file like any other — to FILE.
struct ShrunkScenarioFile {
    static let helpLine =
        "  --shrunk-scenario FILE  write the scenario without the steps the first failure does not need to FILE"

    let path: String

    /// Takes `--shrunk-scenario FILE` if given.
    static func take(from arguments: inout Arguments) throws -> ShrunkScenarioFile? {
        try OutputFile.take("--shrunk-scenario", from: &arguments).map { ShrunkScenarioFile(path: $0.path) }
    }

    /// Writes the report's first failure's `shrunkScenario` and says so on stderr (stdout keeps
    /// the report); says why not when there is none.
    func write(from report: JSONValue) throws {
        guard let failure = report["failures"]?.arrayValue?.first else {
            return FileHandle.standardError.write(Data("no failure, so no shrunk scenario: \(path) not written\n".utf8))
        }
        guard let shrunk = failure["shrunkScenario"] else {
            return FileHandle.standardError.write(
                Data("no step of the scenario can go without changing its failure: \(path) not written\n".utf8))
        }
        try OutputFile(path: path).write(try JSONWire.bytes(shrunk) + [UInt8(ascii: "\n")])
        let steps = shrunk["steps"]?.arrayValue?.count ?? 0
        FileHandle.standardError.write(Data("wrote the shrunk scenario (\(steps) steps) to \(path)\n".utf8))
    }
}
