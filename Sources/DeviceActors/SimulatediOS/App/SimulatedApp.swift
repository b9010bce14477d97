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
    /// Every intent the app answers, in the order its docs list them (for errors and help).
    var intentNames: [String] { get }
    /// Decodes `arguments` for the user action `intent` and returns the work to run inside the
    /// main app. Throws before anything runs: ``DeviceError/unknownIntent(_:known:)``, or
    /// ``DeviceError/invalidArgument(field:reason:)`` naming the bad argument.
    func prepare(intent: String, arguments: any IntentArguments) throws(DeviceError) -> PreparedIntent
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
public struct NoArguments: IntentInput {
    private enum Member: CodingKey {}

    public init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: Member.self)
    }
}

/// An intent whose arguments are decoded and checked: the work to run inside the main app,
/// returning what the app shows.
public typealias PreparedIntent = @Sendable () async throws -> any Encodable & Sendable

/// Counts changes to an app's own persistent data, so the device knows when to save it.
/// World-confined (`@unchecked Sendable`): bumped by the main app inside the world, read by the
/// device between runs, on the thread that drives the world.
public final class DataRevision: @unchecked Sendable {
    public private(set) var value = 0

    public init() {}

    public func bump() { value += 1 }
}
