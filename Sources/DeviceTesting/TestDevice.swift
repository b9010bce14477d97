import JSONValues
import DeviceActors
import ScenarioFiles
import ExtensionSandbox
import Foundation
@_spi(Host) import SimulatediOS

/// An in-process device for an app's tests, without a daemon: create it with an app, send
/// events and intents, advance the virtual clock, and list the exact effects each step causes
/// (TCA TestStore-style: under ``Exhaustivity/observable``, the default, an effect the step
/// caused and the test did not list fails the step with a diff).
///
/// ```swift
/// let device = try TestDevice(app: .clarity)
/// try device.intent("selectApps", ["apps": ["com.burbn.instagram"]], effects: [...])
/// try device.send(.appOpen(app: "com.burbn.instagram"))
/// try device.advance(minutes: 5, effects: [.notification(title: "Awareness Nudge", body: "…")])
/// ```
///
/// Every step throws ``TestDeviceFailure`` when the effects differ and ``DeviceError`` when the
/// device refuses, so it works the same from Swift Testing and XCTest (`try` in a throwing test).
/// Intent arguments are JSON, decoded exactly as the daemon decodes a request's `args`. The
/// device is the daemon's own ``SimulatedDevice`` (``device``), so a test sees what a client sees.
public final class TestDevice {
    /// The device under test, for anything the steps below don't cover.
    public let device: SimulatedDevice
    /// Which effects each step must list; may change between steps.
    public var exhaustivity: Exhaustivity
    /// The app's state as the last ``expectState(_:_:)`` found it (at first, as the device was
    /// made): what the next one's change applies to.
    var stateBaseline: JSONValue?

    /// A device running `app` (`.clarity`, or your own app's registration, docs/sdk.md).
    /// - Parameters:
    ///   - start: the device's start as ISO 8601 with its offset (default Monday 2026-01-05
    ///     09:00 UTC, as the daemon's devices); `timeZone` is the zone its days are counted in.
    ///   - config: the device's config; the app's own settings go in `config.app`.
    ///   - name: the device's name (The Phone signs up as a user of that name).
    ///   - servers: the backends the device reaches (The Phone): give several devices the same
    ///     ``Servers`` to put them on one backend; by default each device has a private one.
    public convenience init(
        app: AppRegistration, start: String = "2026-01-05T09:00:00Z", timeZone: String = "UTC", seed: UInt64 = 1,
        config: DeviceConfig = DeviceConfig(), exhaustivity: Exhaustivity = .observable, name: String = "test",
        servers: Servers? = nil
    ) throws {
        try self.init(
            apps: [app], start: start, timeZone: timeZone, seed: seed, config: config, exhaustivity: exhaustivity, name: name,
            servers: servers)
    }

    /// A device with several apps installed, in order (the first the primary; `config.app` holds
    /// its settings, the others run with their defaults): each has its own main app, extensions,
    /// App Group and stores; the shield over an app is drawn by the app whose store shields it
    /// (docs/platform.md, "Several apps on one device"). Intents name their app (`app:`).
    public convenience init(
        apps: [AppRegistration], start: String = "2026-01-05T09:00:00Z", timeZone: String = "UTC", seed: UInt64 = 1,
        config: DeviceConfig = DeviceConfig(), exhaustivity: Exhaustivity = .observable, name: String = "test",
        servers: Servers? = nil
    ) throws {
        let (date, zone) = try Self.parse(start: start, timeZone: timeZone)
        try self.init(
            device: SimulatedDevice(
                DeviceDescription(
                    name: name, apps: .registered(apps), start: date, timeZone: zone, timeZoneName: timeZone, seed: seed,
                    config: config),
                servers: servers),
            exhaustivity: exhaustivity)
    }

    /// A device running an app of your own without a registration (a test's throwaway app),
    /// built by `makeApp` on the device's platform and the executors its main app's actors run on
    /// (``ProcessExecutors``), on iOS or Android. `appName` prefixes its processes in the trace
    /// (`<appName>.app`, `<appName>.monitor`…).
    public convenience init(
        appName: String, start: String = "2026-01-05T09:00:00Z", timeZone: String = "UTC", seed: UInt64 = 1,
        config: DeviceConfig = DeviceConfig(), exhaustivity: Exhaustivity = .observable,
        makeApp: (Platform, ProcessExecutors) throws -> any SimulatedApp
    ) throws {
        let (date, zone) = try Self.parse(start: start, timeZone: timeZone)
        let device = try withoutActuallyEscaping(makeApp) { makeApp throws(DeviceError) in
            try SimulatedDevice(
                DeviceDescription(
                    name: "test",
                    apps: .own(name: appName) { platform, executors throws(DeviceError) in
                        do { return try makeApp(platform, executors) } catch let error as DeviceError { throw error } catch {
                            throw .internalFailure("\(error)")
                        }
                    }, start: date, timeZone: zone, timeZoneName: timeZone, seed: seed, config: config))
        }
        self.init(device: device, exhaustivity: exhaustivity)
    }

    /// Steps on a device made elsewhere: one restored from a snapshot
    /// (`SimulatedDevice(restoring:servers:)`), or given its own network transport.
    public convenience init(wrapping device: SimulatedDevice, exhaustivity: Exhaustivity = .observable) {
        self.init(device: device, exhaustivity: exhaustivity)
    }

    private init(device: SimulatedDevice, exhaustivity: Exhaustivity) {
        self.device = device
        self.exhaustivity = exhaustivity
        stateBaseline = try? appState(as: JSONValue.self)
    }

    private static func parse(start: String, timeZone: String) throws(DeviceError) -> (Date, TimeZone) {
        guard let zone = TimeZone(identifier: timeZone) else {
            throw .invalidArgument(field: "timeZone", reason: "unknown time zone \(timeZone)")
        }
        guard let date = DeviceCalendar.parseISO(start) else {
            throw .invalidArgument(field: "start", reason: "expected an ISO 8601 date, got \(start)")
        }
        return (date, zone)
    }

    // MARK: - Steps

    /// Sends a device event (`.lock`, `.appOpen(app:)`, `.shieldPress(app:button:)`…) and checks
    /// the effects it caused against `effects`.
    public func send(_ event: DeviceEvent, effects: [Effect] = []) throws {
        let outcome = try device.apply(event)
        try check(".send(\(event))", outcome.effects, against: effects)
    }

    /// Runs a user action of the main app of `app` (required when several are installed) with
    /// `args` (a JSON object, as `intent`'s `args`), checks its effects, and returns what the app
    /// answered, as JSON.
    @discardableResult
    public func intent(_ name: String, _ args: JSONValue = [:], app: String? = nil, effects: [Effect] = []) throws -> JSONValue {
        let outcome = try device.perform(intent: name, arguments: JSONArguments(args), app: app)
        try check(".intent(\(name))", outcome.effects, against: effects)
        return try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(AnyEncodable(outcome.result)))
    }

    /// Runs a typed user action (`.limitApps([...])`, ``AppAction``): its intent with its input as
    /// `args`, exactly as ``intent(_:_:app:effects:)`` does.
    @discardableResult
    public func send(_ action: some AppAction, app: String? = nil, effects: [Effect] = []) throws -> JSONValue {
        try intent(action.name, try JSONWire.value(AnyEncodable(action.input)), app: app, effects: effects)
    }

    /// The device's `FamilyActivityPicker`, to build the tokens a user's pick makes (the
    /// `FamilyActivitySelection` a test expects in the App Group) without reaching into the host.
    public var familyActivityPicker: FamilyActivityPicker { device.familyActivityPicker }

    /// Moves the virtual clock forward, running everything that falls due, and checks the effects.
    public func advance(seconds: Double, effects: [Effect] = []) throws {
        let outcome = try device.advance(seconds: seconds)
        try check(".advance(seconds: \(seconds))", outcome.effects, against: effects)
    }

    /// ``advance(seconds:effects:)`` in minutes.
    public func advance(minutes: Double, effects: [Effect] = []) throws {
        try advance(seconds: minutes * 60, effects: effects)
    }

    /// Writes (or, with nil, removes) a value in the app's App Group (or `suite`), as another
    /// process would, and checks the effects.
    public func setValue(_ value: StoredValue?, forKey key: String, suite: String? = nil, effects: [Effect]) throws {
        let outcome = try device.storeSet(suite: suite, key: key, value: value)
        try check(".setValue(forKey: \(key))", outcome.effects, against: effects)
    }

    // MARK: - What the device holds now

    /// A value of the app's App Group (or `suite`).
    public func value(forKey key: String, suite: String? = nil) throws -> StoredValue? {
        try device.storeGet(suite: suite, key: key)
    }

    /// The notifications delivered (shown), oldest first (`notifications.list`).
    public func notifications() throws -> [DeliveredNotification] { try device.notifications(since: nil) }

    /// The effective shield and each ManagedSettings store's settings.
    public func shields() throws -> ShieldsReport { try device.shields() }

    /// The monitored DeviceActivity schedules.
    public func activities() throws -> [ActivityReport] { try device.activities() }

    /// Lock state, frontmost app, shield, radios, call, and the app's own state (`state.app`).
    public func state() throws -> DeviceStateReport { try device.state() }

    /// The app's own state (`device.state`'s `app`), decoded as `type`.
    public func appState<State: Decodable>(as type: State.Type) throws -> State {
        try JSONDecoder().decode(type, from: JSONEncoder().encode(AnyEncodable(try device.state().appState)))
    }

    // MARK: - Checking

    private func check(_ step: String, _ traced: [TracedEffect], against expected: [Effect]) throws {
        let actual = traced.map(\.entry).filter { exhaustivity.covers($0.payload) }
        let matches =
            exhaustivity == .off
            ? Self.isSubsequence(expected, of: actual.map(\.payload)) : actual.map(\.payload) == expected
        if !matches { throw TestDeviceFailure(step: step, expected: expected, actual: actual, exhaustivity: exhaustivity) }
    }

    private static func isSubsequence(_ expected: [Effect], of actual: [Effect]) -> Bool {
        var remaining = expected[...]
        for effect in actual where effect == remaining.first { remaining.removeFirst() }
        return remaining.isEmpty
    }
}

/// Intent arguments given as JSON, decoded strictly as the daemon decodes `args`: an unknown,
/// missing or ill-typed member is refused naming its path (`args.apps[0]`).
public struct JSONArguments: IntentArguments {
    public let values: JSONValue

    public init(_ values: JSONValue = [:]) {
        self.values = values
    }

    public func decode<T: Decodable>(_ type: T.Type) throws(DeviceError) -> T {
        try JSONIntentArguments(value: values).decode(type)
    }
}

/// Wraps an existential so JSONEncoder can encode it at the top level.
struct AnyEncodable: Encodable {
    let value: any Encodable
    init(_ value: any Encodable) { self.value = value }
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}
