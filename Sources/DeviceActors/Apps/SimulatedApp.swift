import ExtensionSandbox

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
    /// The main app became active (its bundle id was opened).
    func didBecomeActive() async throws
    /// App-specific state for `device.state.app`.
    func state() async throws -> any Encodable & Sendable
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
    func contacts(_ name: String) throws(DeviceError) -> [Contact]?
}
