import ExtensionSandbox
import Foundation
@_spi(Host) import SimulatediOS

/// A situation written down to be run, explored under many interleavings and replayed
/// (docs/scenarios.md): a fresh device running `app`, built from `start`, `timezone`, `seed` and
/// `config`, then `steps` in order, with `invariants` checked after every step and at the end.
/// Decoding and validation happen before anything runs (the daemon answers -32005 naming the
/// step); a `Scenario` is always runnable.
public struct Scenario: Sendable {
    public var name: String
    /// The apps installed, in order (`app`, or a scenario file's `apps`); the first is the primary.
    public var apps: [AppRegistration]
    /// The primary app.
    public var app: AppRegistration { apps[0] }
    public var start: Date
    public var timeZone: TimeZone
    public var timeZoneName: String
    /// The device's seed: its random choices. The schedule's own seed is separate.
    public var seed: UInt64
    public var config: DeviceConfig
    public var steps: [ScenarioStep]
    public var invariants: [ScenarioCondition]
    /// A `race` trace event (a lost update on the App Group) fails the schedule; it switches
    /// the device's race detector (`config.raceDetector`) on.
    public var failOnRace: Bool
    /// The app's built-in invariants (docs/scenarios.md) are checked too; on by default.
    public var builtInInvariants: Bool
    /// A known race pinned: an exploration passes when some schedule fails (`expectFailure`).
    public var expectFailure: Bool
    /// The faults an exploration's schedules may meet (``FaultPlan``; docs/scenarios.md,
    /// Faults): each random or PCT schedule injects them at random from its seed; swarm mode
    /// switches each kind on or off per schedule. The scenario's own schedule and `dfs` meet none.
    public var faults: Set<Fault>
    /// For a scenario read from a file, the hash of its JSON (`ScenarioFile.hash(of:)`): what the
    /// replay tokens of the daemon and of a test both name it by. Nil for one built in Swift.
    public var fileHash: String?
    /// The device's name (`device`): `scenario` unless given. An app may use it — to sign its user
    /// up to its server under it — so a recorded session names the device it was recorded on.
    public var deviceName = "scenario"

    public init(
        name: String, app: AppRegistration, otherApps: [AppRegistration] = [], start: Date, timeZone: TimeZone,
        timeZoneName: String, seed: UInt64, config: DeviceConfig, steps: [ScenarioStep], invariants: [ScenarioCondition],
        failOnRace: Bool = false, builtInInvariants: Bool = true, expectFailure: Bool = false, faults: Set<Fault> = []
    ) {
        self.expectFailure = expectFailure
        self.faults = faults
        self.name = name
        self.apps = [app] + otherApps
        self.start = start
        self.timeZone = timeZone
        self.timeZoneName = timeZoneName
        self.seed = seed
        self.config = config
        self.steps = steps
        self.invariants = invariants
        self.failOnRace = failOnRace
        self.builtInInvariants = builtInInvariants
    }

    /// The fresh device a run of the scenario makes, named `name`, with `config` (a schedule's
    /// may switch quirks on).
    func device(named name: String, config: DeviceConfig) -> DeviceDescription {
        DeviceDescription(
            name: name, apps: .registered(apps), start: start, timeZone: timeZone, timeZoneName: timeZoneName, seed: seed,
            config: config)
    }
}

/// One step of a scenario.
public enum ScenarioStep: Sendable {
    /// An input, as the `event` method takes it.
    case event(DeviceEvent)
    /// A user action in the main app of `app` (named when several apps are installed), as the
    /// `intent` method takes it.
    case intent(name: String, arguments: any IntentArguments, app: String? = nil)
    /// Virtual time passes (seconds > 0). Inside a `parallel` branch the branch waits that long
    /// while the others go on.
    case advance(seconds: Double)
    /// Branches run concurrently: their steps, and every extension callback they cause,
    /// interleave under the exploring strategy. A branch holds `event`, `intent`, `advance` and
    /// `waitUntil`.
    case parallel([[ScenarioStep]])
    /// One condition checked at this point.
    case expect(ScenarioCondition)
    /// Time passes, and the world goes on, until `condition` holds: it is checked at once and
    /// again after every effect the device records; the step fails when it does not hold within
    /// `seconds` of virtual time. Inside a `parallel` branch only that branch waits ("the user
    /// taps the shield once it shows, while the monitor is still running"). Default limit:
    /// ``ScenarioStep/defaultWaitSeconds``.
    case waitUntil(ScenarioCondition, within: Double)
    /// An `event`, `intent` or `advance` that must fail as the ``InputFailure`` says: a recorded
    /// input that failed yet changed the device (an intent the app refused was traced as
    /// begun). The step fails when the input goes through, or fails another way. At the top
    /// level only.
    indirect case failing(ScenarioStep, InputFailure)

    /// How long a `waitUntil` waits when its scenario gives no `within`: one hour of virtual time.
    public static let defaultWaitSeconds: Double = 3_600
}

/// How an input fails, as a `failing` step expects it: refused by the platform or the app
/// (-32003, by its reason), or given an argument it could not take (-32602, by its field).
public enum InputFailure: Sendable, Equatable, CustomStringConvertible {
    case refused(reason: String)
    case invalidArgument(field: String)

    /// The failure `error` is; nil for one no step expects (an unknown name, which changes
    /// nothing, or an internal failure, which is a bug).
    public init?(_ error: DeviceError) {
        switch error {
        case .refused(let reason, _): self = .refused(reason: reason)
        case .invalidArgument(let field, _): self = .invalidArgument(field: field)
        case .unknownApp, .unknownEvent, .unknownIntent, .internalFailure: return nil
        }
    }

    public var description: String {
        switch self {
        case .refused(let reason): "refused (\(reason))"
        case .invalidArgument(let field): "invalid argument \(field)"
        }
    }
}

/// A condition on the device (`expect` steps, `invariants`).
public enum ScenarioCondition: Sendable {
    /// A key of an App Group suite (the app's group when `suite` is nil).
    case store(suite: String?, key: String, ValueMatch)
    /// Whether the effective shields cover `app`.
    case shielded(app: String, is: Bool)
    /// `app` is frontmost under its shield: the user sees the shield and can press its buttons.
    case shieldShown(app: String)
    /// A value in `device.state`, by a dotted path (`app.challenge.status`; array items by index).
    case state(path: String, ValueMatch)
    /// Notifications delivered so far: those whose title and body contain the texts given;
    /// `count` of them exactly, or at least one.
    case notification(titleContains: String?, bodyContains: String?, count: Int?)
    /// A rule written in Swift (a scenario built in a test, docs/sdk.md "Exploring from a
    /// test"): `holds` is shown the device as an observer sees it; `name` says what it checks,
    /// in failures.
    case that(_ name: String, _ holds: @Sendable (DeviceObservation) -> Bool)
}

/// The device as a ``ScenarioCondition/that(_:_:)`` rule sees it between two steps, read as an
/// observer (no read is traced, seen by the race detector, or a scheduling point).
public struct DeviceObservation: Sendable {
    /// The app's App Group, every key.
    public let appGroup: [String: StoredValue]
    /// The apps the effective shield covers (by bundle id) and its categories.
    public let shieldedApplications: Set<String>
    public let shieldedCategories: Set<String>
    /// The notifications delivered so far, oldest first.
    public let notifications: [DeliveredNotification]
    /// The app's own state (`device.state`'s `app`).
    public let appState: StoredValue?

    /// A value of the app's App Group, nil when absent.
    public func value(forKey key: String) -> StoredValue? { appGroup[key] }
}

/// How a value must look.
public enum ValueMatch: Sendable {
    case equals(StoredValue)
    case oneOf([StoredValue])
    case absent

    /// Whether `value` (nil when absent) matches; numbers compare by value (`2` equals `2.0`).
    func matches(_ value: StoredValue?) -> Bool {
        switch self {
        case .absent: value == nil
        case .equals(let wanted): value.map { $0.sameValue(as: wanted) } ?? false
        case .oneOf(let wanted): value.map { value in wanted.contains { value.sameValue(as: $0) } } ?? false
        }
    }
}
