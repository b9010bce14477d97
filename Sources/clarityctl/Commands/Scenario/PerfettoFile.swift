import ControlProtocol
import Foundation

/// `--perfetto FILE` of `explore`, `replay` and `run`: where to write a schedule's timeline
/// (the `perfetto` member of `scenario.replay`/`run` with `traceFormat: "perfetto"`, the same
/// JSON as `trace export`), to open at ui.perfetto.dev.
struct PerfettoFile {
    static let helpLine = "  --perfetto FILE       write the (first failing) schedule's timeline to FILE for ui.perfetto.dev"

    let path: String

    /// Takes `--perfetto FILE` if given.
    static func take(from arguments: inout Arguments) throws -> PerfettoFile? {
        guard let path = try arguments.value(of: "--perfetto") else { return nil }
        guard !path.isEmpty else { throw UsageError("option --perfetto needs a file name") }
        return PerfettoFile(path: path)
    }

    /// Writes `result["perfetto"]` and says so on stderr (stdout keeps the result).
    func write(from result: JSONValue) throws {
        guard let trace = result["perfetto"] else { return }
        var bytes = try JSONWire.bytes(trace)
        bytes.append(UInt8(ascii: "\n"))
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw OutputFileError(path: path, reason: error.localizedDescription)
        }
        let events = trace["otherData"]?["events"]?.intValue ?? 0
        FileHandle.standardError.write(Data("wrote \(events) trace events to \(path); open it at ui.perfetto.dev\n".utf8))
    }
}
