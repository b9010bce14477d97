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

    /// Reads `explicitPath`, or ``defaultPath`` when nil, and checks it against the daemon's
    /// apps (``check(against:defaultApp:)``). A missing default file means built-in defaults; a
    /// missing explicit file, or any invalid file, is a usage failure (exit 2) naming the file
    /// and the bad field. The one way the config is read, at start and on SIGHUP
    /// (``ConfigReload``), so that a file refused at start is refused by a reload too.
    static func load(explicitPath: String?, catalog: AppCatalog) throws(StartupFailure) -> ConfigFile {
        let file = try read(explicitPath: explicitPath, settingNames: catalog.topLevelSettingNames)
        try file.check(against: catalog, defaultApp: file.defaultApp(in: catalog))
        return file
    }

    private static func read(
        explicitPath: String?, settingNames: DeviceConfig.Overrides.SettingNames
    ) throws(StartupFailure) -> ConfigFile {
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
            let contents = try JSONValueDecoder(userInfo: [DeviceConfig.Overrides.settingNamesKey: settingNames])
                .decode(Contents.self, from: value)
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

    /// The app of device `default` and of devices created without `app`: `defaultApp`, else the
    /// first app the daemon is given (`clarityd`'s: the first of `BuiltInApps`).
    func defaultApp(in catalog: AppCatalog) -> String {
        config.defaultApp ?? catalog.available.first ?? ""
    }

    /// Refuses devices' defaults that would refuse every `device.create` without `app`: a
    /// `defaultApp` the daemon does not run, a `platform` it has no client for (`{"platform":
    /// "android"}` with a default app that has only an iOS one), settings it does not take. A reload
    /// checks the new defaults against the running daemon's default app as well.
    func check(against catalog: AppCatalog, defaultApp: String) throws(StartupFailure) {
        do {
            try catalog.check(deviceDefaults, for: defaultApp)
        } catch let DeviceError.invalidArgument(field, reason) {
            let member = field == "app" ? "defaultApp" : field.hasPrefix("config.") ? String(field.dropFirst(7)) : field
            let explained =
                switch member {
                case "defaultApp": reason
                case "platform":
                    "\"\(deviceDefaults.platform.rawValue)\" for every new device, but the default app \(reason); make "
                        + "defaultApp one of those, or give platform per device (device.create's platform)"
                default: "\(reason) (the default app: \(defaultApp))"
                }
            throw .usage("config file \(path ?? "(built-in defaults)"): field \"\(member)\": \(explained)")
        } catch {
            throw .usage("config file \(path ?? "(built-in defaults)"): \(error)")
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
