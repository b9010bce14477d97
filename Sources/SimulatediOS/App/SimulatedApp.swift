import ExtensionSandbox
import Foundation

/// An app the device can run: a main app plus its three extensions, ported from a seed. One
/// target per app under `Apps/<App>/`, seeing only this module's public API (docs/sdk.md).
///
/// Only the names are required; everything else has a default an app overrides when it needs
/// it: no extension code (a monitor that ignores callbacks, the system's shield, `.close`), no
/// intents, nothing at launch, no state and no persistent data. System signals (calls, networks)
/// are not methods here: the app registers observers at launch (`platform.callObserver`,
/// `platform.pathMonitor`), as on iOS.
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
    /// The user actions the app answers (`intent`), in the order its docs list them.
    var intents: IntentTable { get }
    /// The App Intents the app offers to Shortcuts (`AppShortcutsProvider`), by name: a personal
    /// automation runs one (``ShortcutsAutomations``).
    var appShortcuts: [AppShortcut] { get }
    /// The main app launched (device created or daemon restarted): launch-time work, timers,
    /// observers.
    func launch() async throws
    /// The main app became active (its bundle id was opened).
    func didBecomeActive() async throws
    /// The main app's process ended (`app.terminate`): forget what lived only in its memory (a
    /// daemon restart keeps it; the system ending the process does not). Its observers and timers
    /// are already gone; what it stored (App Group, ``persistentData()``'s store) stays.
    func processEnded() async
    /// App-specific state for `device.state.app`.
    func state() async throws -> any Encodable & Sendable
    /// Bumped whenever the app's own persistent data changes (its SwiftData store).
    var dataRevision: DataRevision { get }
    /// The app's persistent data, for the device snapshot: the same data as the same bytes in
    /// every process (``PersistentData/encode(_:)``).
    func persistentData() async throws -> Data?
    /// Restores data saved by ``persistentData()`` (before ``launch()``).
    func restore(from data: Data) async throws
    /// Android's `WorkerFactory.createWorker`: the worker of the class a WorkManager request
    /// names (``OneTimeWorkRequest/workerClassName``), made anew for each run; nil for a class
    /// the app does not have, which fails the work.
    func createWorker(workerClassName: String) -> (any CoroutineWorker)?
}

extension SimulatedApp {
    public func makeMonitor(executor: WorldActorExecutor) -> any DeviceActivityMonitor { IgnoringMonitor() }
    public func makeShieldConfiguration(executor: WorldActorExecutor) -> any ShieldConfigurationDataSource {
        NoShieldConfiguration()
    }
    public func makeShieldAction(executor: WorldActorExecutor) -> any ShieldActionDelegate { ClosingShieldAction() }
    public var intents: IntentTable { .none }
    public var appShortcuts: [AppShortcut] { [] }
    public func launch() async throws {}
    public func didBecomeActive() async throws {}
    public func processEnded() async {}
    public func state() async throws -> any Encodable & Sendable { [String: String]() }
    public var dataRevision: DataRevision { DataRevision.unchanging }
    public func persistentData() async throws -> Data? { nil }
    public func restore(from data: Data) async throws {}
    public func createWorker(workerClassName: String) -> (any CoroutineWorker)? { nil }

    /// Every intent the app answers, in order (for errors and help).
    public var intentNames: [String] { intents.names }

    /// Decodes `arguments` for the user action `intent` and returns the work to run inside the
    /// main app. Throws before anything runs: ``DeviceError/unknownIntent(_:known:)``, or
    /// ``DeviceError/invalidArgument(field:reason:)`` naming the bad argument.
    public func prepare(intent: String, arguments: any IntentArguments) throws(DeviceError) -> PreparedIntent {
        try intents.prepare(intent, arguments)
    }
}

/// The default monitor: an app without a DeviceActivityMonitor extension.
private struct IgnoringMonitor: DeviceActivityMonitor {}

/// The default ShieldConfiguration: none, so the system's shield shows (as when iOS finds no
/// extension answering).
private struct NoShieldConfiguration: ShieldConfigurationDataSource {}

/// What the default ShieldConfiguration throws: iOS shows its own shield (not an app error).
@_spi(Host) public struct NoShieldConfigurationExtension: Error {}

/// The default ShieldAction: every button closes the app.
private struct ClosingShieldAction: ShieldActionDelegate {}

/// An app as clients see it: its names and the user actions it answers.
public struct AppDescription: Sendable, Encodable {
    public let name: String
    /// The main app's bundle id (opening it makes the main app active); nil when not available.
    public let bundleIdentifier: String?
    public let appGroup: String?
    /// Whether this build runs it.
    public let available: Bool
    public let intents: [IntentDescription]

    public init(name: String, bundleIdentifier: String?, appGroup: String?, available: Bool, intents: [IntentDescription]) {
        self.name = name
        self.bundleIdentifier = bundleIdentifier
        self.appGroup = appGroup
        self.available = available
        self.intents = intents
    }
}

/// One intent of an app: its name and its arguments as `clarityctl intent` takes them.
public struct IntentDescription: Sendable, Encodable {
    public let name: String
    /// `key=value` words, optional ones in brackets (`apps=[bundle ids] [categories=[names]]`).
    public let arguments: String

    public init(name: String, arguments: String) {
        self.name = name
        self.arguments = arguments
    }
}

/// An intent's `args` as the daemon received them.
public protocol IntentArguments: Sendable {
    /// Decodes the arguments as `type`, strictly: an unknown, missing or ill-typed member is
    /// refused as ``DeviceError/invalidArgument(field:reason:)`` naming it (`args.enabled`).
    func decode<T: Decodable>(_ type: T.Type) throws(DeviceError) -> T
    /// Decodes the arguments as an intent's `Input`, as ``decode(_:)`` does. An input is a value
    /// decoded from the arguments alone, so an implementation may hand back the one it decoded
    /// before for the same arguments and type (an exploration sends the same intents thousands
    /// of times); by default, it decodes.
    func decodeInput<Input: IntentInput>(_ type: Input.Type) throws(DeviceError) -> Input
}

extension IntentArguments {
    public func decodeInput<Input: IntentInput>(_ type: Input.Type) throws(DeviceError) -> Input {
        try decode(type)
    }
}

/// An intent's arguments as a type: decoded strictly, then ``validate()``d, before the intent runs.
public protocol IntentInput: Decodable, Sendable {
    /// Checks what decoding cannot (ranges, lengths); throws
    /// ``DeviceError/invalidArgument(field:reason:)`` with the field's path (`args.minutes`).
    func validate() throws(DeviceError)
}

extension IntentInput {
    public func validate() throws(DeviceError) {}
}

/// The arguments of an intent that takes none: any member is refused.
public struct NoArguments: IntentInput, Encodable {
    private enum Member: CodingKey {}

    public init() {}

    public init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: Member.self)
    }

    /// `{}`: what a typed step with no arguments sends.
    public func encode(to encoder: any Encoder) throws {
        _ = encoder.container(keyedBy: Member.self)
    }
}

/// An intent whose arguments are decoded and checked: the work to run inside the main app,
/// returning what the app shows.
public typealias PreparedIntent = @Sendable () async throws -> any Encodable & Sendable

/// Counts changes to an app's own persistent data, so the device knows when to save it.
/// World-confined (`@unchecked Sendable`): bumped by the main app inside the world, read by the
/// device between runs, on the thread that drives the world.
// unchecked: world-confined: bumped in the world, read between runs by the thread driving it (checked on entry)
public final class DataRevision: @unchecked Sendable {
    public private(set) var value = 0

    public init() {}

    public func bump() { value += 1 }

    /// The revision of an app without persistent data: never bumped.
    static let unchanging = DataRevision()
}
