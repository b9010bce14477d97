import ControlProtocol
import Foundation

/// The config in force: clarityd.json (or the built-in defaults), then the command-line flags.
///
/// The devices get the whole object as their defaults (``deviceDefaults``): every field the
/// daemon knows, with defaults filled in, plus any field it doesn't know, passed through untouched.
struct ConfigFile {
    /// Read from the current directory when no `--config` is given.
    static let defaultPath = "config/clarityd.json"

    /// The file read, or nil when the built-in defaults are in force.
    let path: String?
    private(set) var config: DaemonConfig
    private let raw: [String: JSONValue]

    /// Reads `explicitPath`, or ``defaultPath`` when nil. A missing default file means built-in
    /// defaults; a missing explicit file, or any invalid file, is a usage failure naming the file
    /// and the bad field.
    static func load(explicitPath: String?) throws(StartupFailure) -> ConfigFile {
        let path = explicitPath ?? defaultPath
        guard let data = FileManager.default.contents(atPath: path) else {
            guard FileManager.default.fileExists(atPath: path) else {
                if explicitPath == nil { return ConfigFile(path: nil, config: DaemonConfig(), raw: [:]) }
                throw .usage("config file \(path) does not exist")
            }
            throw .usage("config file \(path) cannot be read")
        }
        let raw: [String: JSONValue]
        do {
            guard case .object(let members) = try JSONDecoder().decode(JSONValue.self, from: data) else {
                throw StartupFailure.usage("config file \(path) must hold a JSON object")
            }
            raw = members
        } catch let failure as StartupFailure {
            throw failure
        } catch {
            throw .usage("config file \(path) is not valid JSON")
        }
        do {
            return ConfigFile(path: path, config: try JSONDecoder().decode(DaemonConfig.self, from: data), raw: raw)
        } catch let error as DecodingError {
            throw .usage("config file \(path): \(describe(error))")
        } catch {
            throw .usage("config file \(path): \(error)")
        }
    }

    /// Applies the flags that override the file.
    mutating func apply(_ options: CommandLineOptions) {
        if let socket = options.socket { config.socket = socket }
        if let stateDir = options.stateDir { config.stateDir = stateDir }
        if let logLevel = options.logLevel { config.logLevel = logLevel }
    }

    /// The object handed to the devices: the file's fields overlaid with the config in force.
    var deviceDefaults: JSONValue {
        let effective = (try? JSONWire.value(config))?.objectValue ?? [:]
        return .object(raw.merging(effective) { _, inForce in inForce })
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context), .dataCorrupted(let context):
            return "\(field(context.codingPath)): \(context.debugDescription)"
        case .valueNotFound(_, let context):
            return "\(field(context.codingPath)): must not be null"
        case .keyNotFound(let key, let context):
            return "\(field(context.codingPath + [key])): missing"
        @unknown default:
            return "\(error)"
        }
    }

    private static func field(_ path: [any CodingKey]) -> String {
        let name = path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        return "field \"\(name)\""
    }
}
