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
        try OutputFile.take("--perfetto", from: &arguments).map { PerfettoFile(path: $0.path) }
    }

    /// Writes `result["perfetto"]` and says so on stderr (stdout keeps the result).
    func write(from result: JSONValue) throws {
        guard let trace = result["perfetto"] else { return }
        try OutputFile(path: path).write(try JSONWire.bytes(trace) + [UInt8(ascii: "\n")])
        let events = trace["otherData"]?["events"]?.intValue ?? 0
        FileHandle.standardError.write(Data("wrote \(events) trace events to \(path); open it at ui.perfetto.dev\n".utf8))
    }
}
