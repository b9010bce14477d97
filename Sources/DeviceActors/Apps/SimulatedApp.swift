import ExtensionSandbox
import Foundation

/// An app the device can run: a main app plus its three extensions, ported from a seed.
/// One folder per app under `Apps/<App>/`.
public protocol SimulatedApp: Sendable {
    /// The main app's bundle id; opening it (`app.open`) makes the main app active.
    var bundleIdentifier: String { get }
    /// The App Group suite shared by the main app and its extensions.
    var appGroup: String { get }
    /// A fresh DeviceActivityMonitor extension instance (one per launch).
    func makeMonitor(executor: WorldActorExecutor) -> any DeviceActivityMonitor
    /// A fresh ShieldConfiguration extension instance.
    func makeShieldConfiguration(executor: WorldActorExecutor) -> any ShieldConfigurationDataSource
    /// A fresh ShieldAction extension instance.
    func makeShieldAction(executor: WorldActorExecutor) -> any ShieldActionDelegate
    /// Runs a user action inside the main app (`intent`); returns what the app shows.
    func perform(intent: String, arguments: any IntentArguments) async throws -> any Encodable & Sendable
    /// The main app launched (device created or daemon restarted): launch-time work and timers.
    func launch() async throws
    /// The main app became active (its bundle id was opened).
    func didBecomeActive() async throws
    /// CXCallObserver reported a change of the outgoing call.
    func callChanged(_ call: CallState) async throws
    /// The device joined (`ssid`) or left (nil) a WiFi network.
    func networkChanged(ssid: String?) async throws
    /// App-specific state for `device.state.app`.
    func state() async throws -> any Encodable & Sendable
    /// Bumped whenever the app's own persistent data changes (its SwiftData store).
    var dataRevision: DataRevision { get }
    /// The app's persistent data, for the device snapshot.
    func persistentData() async throws -> Data?
    /// Restores data saved by ``persistentData()`` (before ``launch()``).
    func restore(from data: Data) async throws
}

/// The apps this build simulates, by wire name (`device.create`'s `app`).
public enum AppCatalog {
    /// Every app name the protocol knows.
    public static let protocolNames = ["clarity", "scrollkitty", "spendless", "makehay", "thephone"]
    /// The apps this build can run.
    public static let available = ["clarity"]

    static func make(_ name: String, platform: Platform, config: DeviceConfig, world: World) throws(DeviceError)
        -> any SimulatedApp
    {
        switch name {
        case "clarity": return ClarityApp(platform: platform, config: config, world: world)
        default: throw .unknownApp(name)
        }
    }
}

/// Read access to an intent's `args`, provided by the daemon over its JSON.
public protocol IntentArguments: Sendable {
    /// The string `name`, nil when absent; throws when of another type.
    func string(_ name: String) throws(DeviceError) -> String?
    func bool(_ name: String) throws(DeviceError) -> Bool?
    func int(_ name: String) throws(DeviceError) -> Int?
    func strings(_ name: String) throws(DeviceError) -> [String]?
    /// The array of objects `name`, each readable as arguments (paths like `args.contacts[2].id`).
    func objects(_ name: String) throws(DeviceError) -> [any IntentArguments]?
}

/// Counts changes to an app's own persistent data, so the device knows when to save it.
/// World-confined (`@unchecked Sendable`): bumped by the main app inside the world, read by the
/// device between runs, on the thread that drives the world.
public final class DataRevision: @unchecked Sendable {
    public private(set) var value = 0

    public init() {}

    func bump() { value += 1 }
}
