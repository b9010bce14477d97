import ControlProtocol
import Foundation

/// `clarityctl record stop`: ends the device's recording (`record.stop`) and writes it as a
/// scenario file, laid out one step a line (``ScenarioText``) — to `-o FILE`, else to stdout.
/// A recording too large for an answer is written to FILE by clarityd itself (`path`).
struct RecordStop: ClarityCommand {
    static let help = CommandHelp(
        words: ["record", "stop"], synopsis: "[-o FILE] [--name NAME]",
        abstract: "stop recording and write the session as a scenario (record.stop)",
        details: [
            "  -o FILE, --output FILE  write the scenario to FILE (replacing it) instead of printing it",
            "  --name NAME             the scenario's name (default: recorded on DEVICE)",
            "The scenario starts with the requests the device received before 'record start' (they",
            "rebuild it as it was), then every event, intent and clock advance recorded, a step each;",
            "one that failed yet changed the device carries \"fails\" and must fail so again.",
            "'clarityctl run FILE' replays it to the same trace; add expect steps to make it a test.",
            "Refused (error -32009) when the device is not recorded, or when it received a request no",
            "scenario step gives again while recorded (the recording is then dropped).",
            "A recording too large to answer (over 64 MiB) is written to FILE by clarityd itself;",
            "without -o it is refused, and the recording goes on.",
            "Examples:",
            "  clarityctl record stop -o odd-shield.json --device lab",
            "  clarityctl record stop --name odd-shield > odd-shield.json",
        ])

    let file: OutputFile?
    let name: String?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        file = try OutputFile.take(from: &arguments)
        try file?.checkDirectory()
        name = try arguments.value(of: "--name")
        if name?.isEmpty == true { throw UsageError("option --name needs a non-empty name") }
    }

    var params: [String: JSONValue] {
        name.map { ["name": .string($0)] } ?? [:]
    }

    func run(in session: Session) throws {
        let result: JSONValue
        do {
            result = try session.call(Method.recordStop.rawValue, params: session.options.deviceParams(params))
        } catch let error as RPCError where error.code == RPCError.Code.recording && error.data?["reason"] == "tooLarge" {
            guard let file else { throw error }
            // Too large to answer: clarityd writes the file, laid out the same.
            var withPath = params
            withPath["path"] = .string(URL(fileURLWithPath: file.path).standardizedFileURL.path)
            let written = try session.call(Method.recordStop.rawValue, params: session.options.deviceParams(withPath))
            if session.output.json {
                session.output.showJSON(written)
            } else {
                print(RecordingView.stopLines(written, file: file.path).joined(separator: "\n"))
            }
            return
        }
        let text = ScenarioText.text(of: result["scenario"] ?? .null)
        guard let file else {
            if session.output.json { session.output.showJSON(result) } else { print(text, terminator: "") }
            return
        }
        do {
            try file.write(Array(text.utf8))
        } catch let error as OutputFileError {
            // The daemon has let go of the recording: what it sent is not lost with the file.
            if session.output.json { session.output.showJSON(result) } else { print(text, terminator: "") }
            throw OutputFileError(path: error.path, reason: "\(error.reason); the scenario is printed instead")
        }
        if session.output.json {
            var summary = result.objectValue ?? [:]
            summary["scenario"] = nil
            summary["file"] = .string(file.path)
            session.output.showJSON(.object(summary))
        } else {
            print(RecordingView.stopLines(result, file: file.path).joined(separator: "\n"))
        }
    }
}
