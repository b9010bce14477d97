import ExtensionSandbox
import Foundation
@_spi(Host) import SimulatediOS

/// What a device is, as whoever makes it gives it: its name, its apps, its start, time zone,
/// seed, clock and config. It is the one thing ``SimulatedDevice/init(_:options:servers:)``
/// takes (with how to run it, ``DeviceRunOptions``): a new creation option is a property here
/// and its use in ``DeviceWiring``, whoever makes devices (`device.create`, a restart's replay,
/// a snapshot's restore, a scenario, a test).
public struct DeviceDescription {
    /// The apps a device runs.
    public enum Apps {
        /// Registered apps in install order, the first the primary (`device.create`'s `app` or
        /// `apps`): each is made from its registration; `config.app` holds the primary's
        /// settings, the others run with their defaults. Each must have a client for
        /// `config.platform`, and be installed once.
        case registered([AppRegistration])
        /// One app of your own without a registration (a test's throwaway app), made by `make` on
        /// the device's platform, on iOS or Android; `name` prefixes its processes in the trace
        /// (`<name>.app`, `<name>.monitor`…). `transport` is its network (a test's own server).
        case own(
            name: String, transport: (any NetworkTransport)? = nil,
            make: (Platform, ProcessExecutors) throws(DeviceError) -> any SimulatedApp)
    }

    public var name: String
    public var apps: Apps
    public var start: Date
    /// The zone the device counts its days in.
    public var timeZone: TimeZone
    /// The zone's name as given (`device.create`'s `timezone`), which the device reports; nil
    /// for `timeZone.identifier`.
    public var timeZoneName: String?
    /// The device's random choices.
    public var seed: UInt64
    public var clock: ClockMode
    public var config: DeviceConfig

    public init(
        name: String, apps: Apps, start: Date, timeZone: TimeZone, timeZoneName: String? = nil, seed: UInt64,
        clock: ClockMode = .virtual, config: DeviceConfig = DeviceConfig()
    ) {
        self.name = name
        self.apps = apps
        self.start = start
        self.timeZone = timeZone
        self.timeZoneName = timeZoneName
        self.seed = seed
        self.clock = clock
        self.config = config
    }

    /// The calendar the device's days are counted in.
    var calendar: DeviceCalendar { DeviceCalendar(start: start, timeZone: timeZone, name: timeZoneName) }

    /// The apps' names, the network and how each app is made: registered apps are checked (a
    /// client for the platform, each once) and reach the instances in `servers` of the servers they bring.
    func installation(servers: Servers?) throws(DeviceError) -> Installation {
        switch apps {
        case .own(let name, let transport, let make):
            return Installation(names: [name], listings: [:], transport: transport) { _, platform, executors throws(DeviceError) in
                try make(platform, executors)
            }
        case .registered(let apps):
            for (index, app) in apps.enumerated() where !app.platforms.contains(config.platform) {
                let others = app.platforms.map(\.rawValue).sorted().joined(separator: ", ")
                throw .invalidArgument(
                    field: index == 0 ? "config.platform" : "apps[\(index)]",
                    reason: "\(app.name) has no \(config.platform.rawValue) client (only \(others))")
            }
            if let twice = apps.indices.first(where: { index in apps[..<index].contains { $0.name == apps[index].name } }) {
                throw .invalidArgument(field: "apps[\(twice)]", reason: "\(apps[twice].name) is installed once")
            }
            let settings = apps.indices.map {
                $0 == 0 ? config.settings(for: apps[0]) : AppSettings(values: [:], fromTopLevel: [])
            }
            let transport = try connection(to: apps, settings: settings, servers: servers ?? Servers())
            return Installation(names: apps.map(\.name), listings: apps.listings, transport: transport) { index, platform, executors throws(DeviceError) in
                try apps[index].makeApp(platform: platform, executors: executors, settings: settings[index])
            }
        }
    }

    /// The line to the instances of the servers `apps` bring (nil when none does): each the one
    /// its app's `settings` name (``AppRegistration/serverInstance(settings:)``; the first app
    /// bringing a server picks its instance), made at the device's start if new. A setting
    /// refused makes no instance.
    private func connection(to apps: [AppRegistration], settings: [AppSettings], servers: Servers) throws(DeviceError)
        -> DeviceConnection?
    {
        var instances: [(server: ServerRegistration, name: String)] = []
        for (app, settings) in zip(apps, settings) {
            guard let server = app.server, !instances.contains(where: { $0.server.name == server.name }) else { continue }
            instances.append((server, try app.serverInstance(settings: settings)))
        }
        guard !instances.isEmpty else { return nil }
        let now = Int64((start.timeIntervalSince1970 * 1000).rounded())
        return DeviceConnection(
            servers: instances.map { servers.instance(of: $0.server, named: $0.name, now: now) },
            caller: ServerCaller(device: name, timezone: calendar.timeZoneName, platform: config.platform.rawValue))
    }

    /// How a description's apps are installed (``installation(servers:)``).
    struct Installation {
        /// In install order, the primary first.
        let names: [String]
        /// The apps' own bundles as the App Store lists them, for the device's catalog.
        let listings: [String: CategoryCatalog.Entry]
        let transport: (any NetworkTransport)?
        let make: (_ index: Int, Platform, ProcessExecutors) throws(DeviceError) -> any SimulatedApp
    }
}
