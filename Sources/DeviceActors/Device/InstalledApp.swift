import ExtensionSandbox
@_spi(Host) import SimulatediOS

/// One app installed on a device: its name, the app, its own platform handles (its App Group
/// defaults, its stores and activities, named per app; its main app's process) over the device's
/// shared agents, and its three extension processes. A device runs one or several
/// (`device.create`'s `apps`), in the order given: the first is the device's primary app.
struct InstalledApp: Sendable {
    let name: String
    let app: any SimulatedApp
    let platform: Platform
    let monitor: Sandbox<any DeviceActivityMonitor>
    let shieldConfiguration: Sandbox<any ShieldConfigurationDataSource>
    let shieldAction: Sandbox<any ShieldActionDelegate>

    /// The main app's name in traces (`dailylimit.app`).
    var mainAppActor: String { "\(name).app" }
    var bundleIdentifier: String { app.bundleIdentifier }
}
