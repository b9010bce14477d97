import ControlProtocol
import DeviceActors
import Foundation
@_spi(Host) import SimulatediOS

/// The config in force: clarityd.json (or the built-in defaults), then the environment and the
/// command-line flags.
///
/// One object holds the daemon's settings (``DaemonConfig``) and the defaults of every device
/// (``DeviceConfig/Overrides``: `memoryBudgets`, `baselineBytes`, `quirks` …). A field that is
/// neither is refused by name, so a typo cannot pass for a setting.
struct ConfigFile {
    /// Read from the current directory when no `--config` is given.
    static let defaultPath = "config/clarityd.json"

    /// The file read, or nil when the built-in defaults are in force.
    let path: String?
    private(set) var config: DaemonConfig
    /// Every device's config before its own overrides.
    let deviceDefaults: DeviceConfig

    private struct Contents: Decodable {
        var daemon: DaemonConfig
        var devices: DeviceConfig.Overrides

        init(from decoder: any Decoder) throws {
            daemon = try DaemonConfig(from: decoder)
            devices = try DeviceConfig.Overrides(from: decoder)
        }
    }

    /// Reads `explicitPath`, or ``defaultPath`` when nil. A missing default file means built-in
    /// defaults; a missing explicit file, or any invalid file, is a usage failure naming the file
    /// and the bad field.
    static func load(explicitPath: String?) throws(StartupFailure) -> ConfigFile {
        let path = explicitPath ?? defaultPath
        guard let data = FileManager.default.contents(atPath: path) else {
            guard FileManager.default.fileExists(atPath: path) else {
                if explicitPath == nil { return ConfigFile(path: nil, config: DaemonConfig(), deviceDefaults: DeviceConfig()) }
                throw .usage("config file \(path) does not exist")
            }
            throw .usage("config file \(path) cannot be read")
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: data)
        } catch {
            throw .usage("config file \(path) is not valid JSON")
        }
        guard case .object = value else { throw .usage("config file \(path) must hold a JSON object") }
        do {
            let contents = try JSONValueDecoder().decode(Contents.self, from: value)
            return ConfigFile(
                path: path, config: contents.daemon, deviceDefaults: try DeviceConfig().applying(contents.devices))
        } catch let error as FieldError {
            throw .usage("config file \(path): field \"\(error.field)\": \(error.reason)")
        } catch let DeviceError.invalidArgument(field, reason) {
            throw .usage("config file \(path): field \"\(field)\": \(reason)")
        } catch {
            throw .usage("config file \(path): \(error)")
        }
    }

    /// Applies what overrides the file: the flags, and `$CLARITYD_SOCKET` when `--socket` is
    /// not given (flag > environment > file > default).
    mutating func apply(_ options: CommandLineOptions, environment: [String: String]) {
        if let socket = options.socket ?? SocketPath.fromEnvironment(environment) { config.socket = socket }
        if let stateDir = options.stateDir { config.stateDir = stateDir }
        if let logLevel = options.logLevel { config.logLevel = logLevel }
    }
}
