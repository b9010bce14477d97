import ControlProtocol
import Foundation

/// The scenario file a scenario command names: read and parsed here, so that a file that is
/// missing, unreadable or not a JSON object is a usage error naming it (exit status 2). The
/// daemon validates the scenario itself (-32005 naming the field, e.g. `steps[3].event.type`).
struct ScenarioFile {
    /// The path as given: replay commands repeat it.
    let path: String
    let scenario: JSONValue

    /// Takes the `FILE` positional from `arguments` and reads it.
    init(arguments: inout Arguments) throws {
        try self.init(path: try arguments.positional("FILE (a scenario, JSON)"))
    }

    init(path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw UsageError("scenario file \(path): no such file")
        }
        guard !isDirectory.boolValue else { throw UsageError("scenario file \(path): is a directory") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("scenario file \(path): cannot be read")
        }
        let scenario: JSONValue
        do {
            scenario = try JSONWire.decode(JSONValue.self, from: data)
        } catch {
            throw UsageError("scenario file \(path): not valid JSON: \(Self.reason(data, error))")
        }
        guard scenario.objectValue != nil else {
            throw UsageError("scenario file \(path): must hold a JSON object, not \(scenario.typeName)")
        }
        self.path = path
        self.scenario = scenario
    }

    /// The quirks the scenario's own `config` switches on: a failure lists them among its
    /// quirks, but a replay of this file needs no `--quirk` for them.
    var ownQuirks: Set<String> {
        Set((scenario["config"]?["quirks"]?.objectValue ?? [:]).filter { $0.value == true }.keys)
    }

    /// Why `data` is not JSON, in the strict parser's words (`a value was expected at byte 27`).
    private static func reason(_ data: Data, _ error: any Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error { return context.debugDescription }
        return "\(error)"
    }
}
