import JSONValues
import DeviceActors
import ExtensionSandbox
import Foundation
@_spi(Host) import SimulatediOS

/// Scenario files: a ``Scenario`` as JSON (docs/scenarios.md), as `scenario.run`,
/// `scenario.explore` and `clarityctl explore FILE` send it, and as a test reads one
/// (`Scenario(contentsOf:apps:)` of DeviceTesting). Decoded strictly: an unknown member, a step
/// with none or two of its kinds, a bad event or condition is refused by its path
/// (`steps[3].event.type`) before anything runs.
public enum ScenarioFile {
    /// The scenario's hash, as replay tokens name it: FNV-1a (64 bits, hexadecimal) of its JSON
    /// with keys sorted, so the same scenario hashes the same however its file is laid out — in
    /// the daemon and in a test alike.
    public static func hash(of value: JSONValue?) -> String {
        ScheduleToken.fingerprint((try? JSONWire.bytes(value ?? .null)) ?? [])
    }

    /// Decodes and validates `value`; its apps are `catalog`'s. The scenario's ``Scenario/fileHash``
    /// is ``hash(of:)``.
    public static func scenario(from value: JSONValue, catalog: AppCatalog) throws(ScenarioInvalid) -> Scenario {
        guard case .object = value else { throw ScenarioInvalid(field: "scenario", reason: "must be an object") }
        let document: ScenarioDocument
        do {
            document = try JSONValueDecoder(userInfo: [DeviceConfig.Overrides.settingNamesKey: catalog.topLevelSettingNames])
                .decode(ScenarioDocument.self, from: value)
        } catch let error as FieldError {
            throw ScenarioInvalid(field: error.field, reason: error.reason)
        } catch let error as ScenarioInvalid {
            throw error
        } catch {
            throw ScenarioInvalid(field: "scenario", reason: "\(error)")
        }
        var scenario = try document.scenario(catalog: catalog)
        scenario.fileHash = hash(of: value)
        try scenario.validate()
        return scenario
    }
}

/// A scenario file's members, as written.
struct ScenarioDocument: Decodable, Sendable {
    var name: String?
    /// The device's name (``Scenario/deviceName``).
    var device: String?
    var app: String?
    /// Several apps installed on the scenario's device, in order (instead of `app`).
    var apps: [String]?
    var start: String?
    var timezone: String?
    var seed: UInt64?
    var config: DeviceConfig.Overrides?
    var steps: [StepDocument]
    var invariants: [ConditionDocument]?
    var failOnRace: Bool?
    var builtInInvariants: Bool?
    /// The scenario pins a known race: exploring it passes when a schedule fails, and fails when
    /// none does (CI stays green while the race is found, red once it is not).
    var expectFailure: Bool?
    /// Fault kinds an exploration injects (``Fault``: `jetsam`, `callbackDropped`, `callbackDelayed`, `reboot`).
    var faults: [String]?

    static let defaultStart = "2026-01-05T08:00:00Z"

    fileprivate func scenario(catalog: AppCatalog) throws(ScenarioInvalid) -> Scenario {
        if app != nil, apps != nil { throw ScenarioInvalid(field: "apps", reason: "give app or apps, not both") }
        let names = apps ?? [app ?? "clarity"]
        guard (1...10).contains(names.count) else { throw ScenarioInvalid(field: "apps", reason: "one to ten app names") }
        var registrations: [AppRegistration] = []
        for (index, appName) in names.enumerated() {
            let field = apps == nil ? "app" : "apps[\(index)]"
            guard let registration = catalog.registrations[appName] else {
                throw ScenarioInvalid(
                    field: field, reason: "unknown app \(appName) (available: \(catalog.available.joined(separator: ", ")))")
            }
            guard !registrations.contains(where: { $0.name == appName }) else {
                throw ScenarioInvalid(field: field, reason: "\(appName) is listed twice")
            }
            registrations.append(registration)
        }
        let startText = start ?? Self.defaultStart
        guard let startDate = DeviceCalendar.parseISO(startText) else {
            throw ScenarioInvalid(field: "start", reason: "not an ISO-8601 time (e.g. \(Self.defaultStart))")
        }
        let zoneName = timezone ?? "UTC"
        guard let zone = TimeZone(identifier: zoneName) else {
            throw ScenarioInvalid(field: "timezone", reason: "unknown time zone (an IANA name, e.g. Europe/Paris)")
        }
        var deviceConfig = DeviceConfig()
        if let config {
            do {
                deviceConfig = try deviceConfig.applying(config)
            } catch .invalidArgument(let field, let reason) {
                throw ScenarioInvalid(field: "config.\(field)", reason: reason)
            } catch {
                throw ScenarioInvalid(field: "config", reason: "\(error)")
            }
        }
        if let device, !(1...64).contains(device.utf8.count) {
            throw ScenarioInvalid(field: "device", reason: "a device name of 1 to 64 bytes")
        }
        var kinds: Set<Fault> = []
        for (index, name) in (faults ?? []).enumerated() {
            guard let fault = Fault(rawValue: name) else {
                throw ScenarioInvalid(
                    field: "faults[\(index)]",
                    reason: "unknown fault \(name) (known: \(Fault.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            guard kinds.insert(fault).inserted else { throw ScenarioInvalid(field: "faults[\(index)]", reason: "listed twice") }
        }
        var scenario = Scenario(
            name: name ?? "scenario", app: registrations[0], otherApps: Array(registrations.dropFirst()), start: startDate, timeZone: zone, timeZoneName: zoneName,
            seed: seed ?? 0, config: deviceConfig, steps: steps.map(\.step), invariants: (invariants ?? []).map(\.condition),
            failOnRace: failOnRace ?? false, builtInInvariants: builtInInvariants ?? true, expectFailure: expectFailure ?? false,
            faults: kinds)
        scenario.deviceName = device ?? scenario.deviceName
        return scenario
    }
}

/// One step: exactly one of `event`, `intent`, `advance`, `parallel`, `expect`, `waitUntil`;
/// with `fails`, an input that must fail so.
struct StepDocument: Decodable, Sendable {
    let step: ScenarioStep

    private enum Key: String, CodingKey, CaseIterable { case event, intent, advance, parallel, expect, waitUntil }
    private enum Outcome: CodingKey { case fails }

    /// `fails`' object: exactly one of `refused` (the -32003 reason) and `invalidArgument` (the
    /// -32602 field).
    private struct FailsDocument: Decodable {
        let failure: InputFailure

        private enum Key: String, CodingKey, CaseIterable { case refused, invalidArgument }

        init(from decoder: any Decoder) throws {
            let (fields, kind) = try decoder.onlyMember(of: Key.self)
            let name = try fields.decode(String.self, forKey: kind)
            guard !name.isEmpty else {
                throw DecodingError.dataCorruptedError(forKey: kind, in: fields, debugDescription: "must not be empty")
            }
            failure = kind == .refused ? .refused(reason: name) : .invalidArgument(field: name)
        }
    }

    /// `waitUntil`'s object: one condition, as `expect` takes it, and `within` (seconds of
    /// virtual time, default ``ScenarioStep/defaultWaitSeconds``).
    private struct WaitDocument: Decodable {
        let condition: ScenarioCondition
        let within: Double

        private enum Key: CodingKey { case within }

        init(from decoder: any Decoder) throws {
            within = try decoder.container(keyedBy: Key.self).decodeIfPresent(Double.self, forKey: .within)
                ?? ScenarioStep.defaultWaitSeconds
            condition = try ConditionDocument(from: decoder).condition
        }
    }

    /// `intent`'s object: `name` and `args`, as the `intent` method takes them.
    private struct IntentDocument: Decodable {
        var name: String
        var args: JSONValue?
        /// Which installed app's main app, on a device with several.
        var app: String?
    }

    /// The `event` object, as the `event` method takes it (without `device`).
    private struct EventDocument: Decodable {
        let event: DeviceEvent

        private enum Key: CodingKey { case type }

        init(from decoder: any Decoder) throws {
            do {
                event = try DeviceEvent(from: decoder)
            } catch let error as DeviceError {
                let path = decoder.codingPath + [Key.type]
                let known = DeviceEvent.types.joined(separator: ", ")
                throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "\(error) (known: \(known))"))
            }
        }
    }

    init(from decoder: any Decoder) throws {
        let (fields, kind) = try decoder.onlyMember(of: Key.self)
        let input: ScenarioStep
        switch kind {
        case .event: input = .event(try fields.decode(EventDocument.self, forKey: .event).event)
        case .intent:
            let intent = try fields.decode(IntentDocument.self, forKey: .intent)
            input = .intent(
                name: intent.name, arguments: JSONIntentArguments(value: intent.args ?? .object([:])), app: intent.app)
        case .advance: input = .advance(seconds: try fields.decode(Double.self, forKey: .advance))
        case .parallel: input = .parallel(try fields.decode([[StepDocument]].self, forKey: .parallel).map { $0.map(\.step) })
        case .expect: input = .expect(try fields.decode(ConditionDocument.self, forKey: .expect).condition)
        case .waitUntil:
            let wait = try fields.decode(WaitDocument.self, forKey: .waitUntil)
            input = .waitUntil(wait.condition, within: wait.within)
        }
        let failure = try decoder.container(keyedBy: Outcome.self).decodeIfPresent(FailsDocument.self, forKey: .fails)
        step = failure.map { .failing(input, $0.failure) } ?? input
    }
}

/// A condition: exactly one of `store`, `shielded`, `shieldShown`, `state`, `notification`.
struct ConditionDocument: Decodable, Sendable {
    let condition: ScenarioCondition

    private enum Key: String, CodingKey, CaseIterable { case store, shielded, shieldShown, state, notification }

    private struct ShieldShownDocument: Decodable {
        var app: String
    }

    private struct StoreDocument: Decodable {
        var suite: String?
        var key: String
        var equals: StoredValue?
        var `in`: [StoredValue]?
        var absent: Bool?
    }

    private struct ShieldedDocument: Decodable {
        var app: String
        var `is`: Bool
    }

    private struct StateDocument: Decodable {
        var path: String
        var equals: StoredValue?
        var `in`: [StoredValue]?
        var absent: Bool?

        enum CodingKeys: String, CodingKey { case path, equals, `in`, absent }
    }

    private struct NotificationDocument: Decodable {
        var titleContains: String?
        var bodyContains: String?
        var count: Int?
    }

    init(from decoder: any Decoder) throws {
        let (fields, kind) = try decoder.onlyMember(of: Key.self)
        switch kind {
        case .store:
            let store = try fields.decode(StoreDocument.self, forKey: .store)
            condition = .store(
                suite: store.suite, key: store.key,
                try Self.match(store.equals, store.in, store.absent, at: decoder.codingPath + [Key.store]))
        case .shielded:
            let shielded = try fields.decode(ShieldedDocument.self, forKey: .shielded)
            condition = .shielded(app: shielded.app, is: shielded.is)
        case .shieldShown:
            condition = .shieldShown(app: try fields.decode(ShieldShownDocument.self, forKey: .shieldShown).app)
        case .state:
            let state = try fields.decode(StateDocument.self, forKey: .state)
            // An empty path (or an empty step in one) names nothing, so `absent` would always hold.
            guard state.path.split(separator: ".", omittingEmptySubsequences: false).allSatisfy({ !$0.isEmpty }) else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath + [Key.state, StateDocument.CodingKeys.path],
                        debugDescription: "a dotted path into device.state, e.g. app.challenge.status (no empty step)"))
            }
            condition = .state(
                path: state.path, try Self.match(state.equals, state.in, state.absent, at: decoder.codingPath + [Key.state]))
        case .notification:
            let note = try fields.decode(NotificationDocument.self, forKey: .notification)
            if let count = note.count, count < 0 {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath + [Key.notification], debugDescription: "count must be ≥ 0"))
            }
            condition = .notification(titleContains: note.titleContains, bodyContains: note.bodyContains, count: note.count)
        }
    }

    private static func match(_ equals: StoredValue?, _ oneOf: [StoredValue]?, _ absent: Bool?, at path: [any CodingKey])
        throws -> ValueMatch
    {
        switch (equals, oneOf, absent) {
        case (let value?, nil, nil): return .equals(value)
        case (nil, let values?, nil): return .oneOf(values)
        case (nil, nil, true?): return .absent
        default:
            throw DecodingError.dataCorrupted(
                .init(codingPath: path, debugDescription: "needs exactly one of equals, in, absent (true)"))
        }
    }
}

extension Decoder {
    /// The object's one member among `Key`'s cases, and the object; "needs exactly one of …"
    /// (the cases in order) when none or several are there.
    fileprivate func onlyMember<Key: CodingKey & CaseIterable>(of _: Key.Type) throws -> (
        fields: KeyedDecodingContainer<Key>, key: Key
    ) {
        let fields = try container(keyedBy: Key.self)
        let present = Key.allCases.filter(fields.contains)
        guard present.count == 1, let key = present.first else {
            let names = Key.allCases.map(\.stringValue).joined(separator: ", ")
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "needs exactly one of \(names)"))
        }
        return (fields, key)
    }
}
