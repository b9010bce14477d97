import DeviceActors
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGHUP: reads the config file again and applies, without dropping a client, what can change
/// while the daemon serves: the log level and the defaults new devices start from (clarityd.json's
/// `devices`). Devices that exist keep their config. The command line still wins (`--log-level`).
///
/// A file that does not load (bad JSON, a bad field, gone when `--config` named it), or that
/// start would refuse (``ConfigFile/load(explicitPath:catalog:)``: one check for both), or whose
/// devices' defaults the running default app cannot take, changes nothing and is logged as an
/// error: the daemon keeps serving with what it had. What needs a restart (socket, state
/// directory, clock, durability, limits, threads, `defaultApp`) is logged as a warning when the
/// file changed it. systemd (`Type=notify-reload`) is told `RELOADING=1` and then `READY=1`.
/// Before this, SIGHUP's default action ended the daemon and left its socket refusing
/// connections (issue 22).
// unchecked: `source` is set once; `running` changes only on the signal queue
final class ConfigReload: @unchecked Sendable {
    private let options: CommandLineOptions
    private let environment: [String: String]
    private let devices: DeviceService
    /// The app devices created without `app` run, as the daemon started with it.
    private let defaultApp: String
    private let catalog: AppCatalog
    private let notifier: ServiceNotifier
    private let log: Logger
    /// The daemon's config as it was last loaded (at start, or by the last reload that worked).
    private var running: DaemonConfig
    private var source: DispatchSourceSignal?

    init(
        running: DaemonConfig, defaultApp: String, catalog: AppCatalog, options: CommandLineOptions,
        environment: [String: String], devices: DeviceService, notifier: ServiceNotifier, log: Logger
    ) {
        self.running = running
        self.defaultApp = defaultApp
        self.catalog = catalog
        self.options = options
        self.environment = environment
        self.devices = devices
        self.notifier = notifier
        self.log = log
    }

    /// Starts handling SIGHUP (``TerminationSignals/handle(_:on:_:)``); returns once it is in place.
    func watch(on queue: DispatchQueue) {
        source = TerminationSignals.handle(SIGHUP, on: queue) { [weak self] in self?.reload() }
    }

    /// Reads the config again and applies what it can.
    func reload() {
        notifier.notify("RELOADING=1\nMONOTONIC_USEC=\(DispatchTime.now().uptimeNanoseconds / 1000)")
        defer { notifier.notify("READY=1") }
        var file: ConfigFile
        do {
            file = try ConfigFile.load(explicitPath: options.configPath, catalog: catalog)
            try file.check(against: catalog, defaultApp: defaultApp)
        } catch {
            log.error("SIGHUP: the config was not reloaded, the daemon keeps its running config: \(error.message)")
            return
        }
        file.apply(options, environment: environment)
        var needsRestart = file.config
        needsRestart.logLevel = running.logLevel
        if needsRestart != running {
            log.warning("SIGHUP: \(file.path ?? "the built-in config") changes settings that take effect at the next start (only logLevel and devices apply at once)")
        }
        log.level = file.config.logLevel
        devices.reload(defaults: file.deviceDefaults)
        running.logLevel = file.config.logLevel
        log.info("SIGHUP: config reloaded from \(file.path ?? "built-in defaults"): log level \(file.config.logLevel.rawValue), new devices' defaults replaced")
    }
}
