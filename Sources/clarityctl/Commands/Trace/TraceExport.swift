import ControlProtocol
import Foundation

/// `clarityctl trace export`: the device's trace as Chrome trace-event JSON, for Perfetto
/// (ui.perfetto.dev) or `chrome://tracing` — written to a file with `-o`, else printed.
struct TraceExport: ClarityCommand {
    static let help = CommandHelp(
        words: ["trace", "export"], synopsis: "[-o FILE] [--since SEQ] [--limit N | --last N]",
        abstract: "export the device's trace for Perfetto (trace.export)",
        details: [
            "  -o FILE, --output FILE  write the JSON to FILE (replacing it) instead of printing it",
            "  --since SEQ             only events after sequence number SEQ",
            "  --limit N               the oldest N events (at most 100000)",
            "  --last N                the newest N events (at most 100000)",
            "Without a window, the whole trace the device keeps (its last 100000 events).",
            "Open the file at ui.perfetto.dev (Open trace file) or in chrome://tracing:",
            "a track per actor and per extension launch, callbacks and intents as slices,",
            "arrows from cause to effect (docs/tracing.md).",
            "Examples:",
            "  clarityctl trace export -o run.json",
            "  clarityctl trace export --last 200 --device lab > lab.json",
        ])

    /// The most events one export holds: the whole trace a device keeps.
    static let maxEvents = 100_000

    let file: OutputFile?
    let members: [String: JSONValue]

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        file = try OutputFile.take(from: &arguments)
        var members: [String: JSONValue] = ["format": .string("perfetto")]
        if let since = try arguments.value(of: "--since") {
            members["since"] = .int(try ArgumentValues.integer(since, for: "--since", minimum: 0))
        }
        for option in ["--limit", "--last"] {
            guard let text = try arguments.value(of: option) else { continue }
            let count = try ArgumentValues.integer(text, for: option, minimum: 0)
            if count > Self.maxEvents { throw UsageError("\(option) may be at most \(Self.maxEvents)") }
            members[String(option.dropFirst(2))] = .int(count)
        }
        if members["limit"] != nil, members["last"] != nil { throw UsageError("--limit and --last cannot be combined") }
        self.members = members
    }

    func run(in session: Session) throws {
        let trace = try session.call(Method.traceExport.rawValue, params: session.options.deviceParams(members))
        var bytes = try JSONWire.bytes(trace)
        bytes.append(UInt8(ascii: "\n"))
        guard let file else {
            FileHandle.standardOutput.write(Data(bytes))
            return
        }
        try file.write(bytes)
        let metadata = trace["otherData"] ?? .null
        let events = metadata["events"]?.intValue ?? 0
        if session.output.json {
            session.output.showJSON(["file": .string(file.path), "events": .int(events), "bytes": .int(bytes.count)])
        } else {
            let range = metadata["firstSeq"].flatMap { first in metadata["lastSeq"].map { " (seq \(PlainText.scalar(first))–\(PlainText.scalar($0)))" } } ?? ""
            print("wrote \(events) trace events\(range) to \(file.path); open it at ui.perfetto.dev")
        }
    }
}
