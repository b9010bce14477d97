import Foundation
@_spi(Host) import SimulatediOS

extension ScenarioCondition {
    /// Checks the condition on `device`; returns why it does not hold (nil when it does).
    func violation(on device: SimulatedDevice) throws(DeviceError) -> String? {
        try device.run { [self] in try await violation(in: device) }
    }

    /// As ``violation(on:)``, from a world task of the device (a `waitUntil` in a branch). The
    /// device is read as an observer: no read is traced or seen by the race detector, and no
    /// read is a scheduling point.
    func violation(in device: SimulatedDevice) async throws -> String? {
        switch self {
        case .store(let suite, let key, let match):
            let value = await device.platform.appGroups.dump(suite: suite ?? device.app.appGroup)[key]
            return match.matches(value) ? nil : "store \(key) \(match.wanted): got \(value.map(Self.show) ?? "absent")"
        case .shielded(let app, let wanted):
            let shielded = await device.platform.managedSettings.shieldReason(for: app) != nil
            return shielded == wanted ? nil : "\(app) \(wanted ? "" : "not ")shielded: it is\(shielded ? "" : " not")"
        case .shieldShown(let app):
            let (foreground, shown) = (await device.springBoard.foregroundApp, await device.springBoard.shieldShown)
            if foreground == app && shown { return nil }
            let now = foreground.map { "\($0) is frontmost\(shown ? " under its shield" : ", no shield shown")" }
            return "shield shown over \(app): \(now ?? "no app is frontmost")"
        case .state(let path, let match):
            let value = try await Self.value(at: path, in: device)
            return match.matches(value) ? nil : "state \(path) \(match.wanted): got \(value.map(Self.show) ?? "absent")"
        case .notification(let title, let body, let count):
            let matching = await device.platform.notifications.list(since: nil).filter { note in
                (title.map(note.title.contains) ?? true) && (body.map(note.body.contains) ?? true)
            }
            let wanted = [title.map { "title containing \"\($0)\"" }, body.map { "body containing \"\($0)\"" }]
                .compactMap { $0 }.joined(separator: " and ")
            if let count {
                return matching.count == count ? nil : "\(count) notification(s) with \(wanted): got \(matching.count)"
            }
            return matching.isEmpty ? "a notification with \(wanted): none" : nil
        case .that(let name, let holds):
            let shield = await device.platform.managedSettings.effective()
            let observation = DeviceObservation(
                appGroup: await device.platform.appGroups.dump(suite: device.app.appGroup),
                shieldedApplications: Set(shield.applications), shieldedCategories: Set(shield.categories),
                notifications: await device.platform.notifications.list(since: nil),
                appState: try Self.decoded(at: [], in: try await device.app.state(), of: "app"))
            return holds(observation) ? nil : "\(name): does not hold"
        }
    }

    /// The value at a dotted path of `device.state` (array items by index), nil when absent
    /// or null.
    ///
    /// Encodes only along the path (``StatePathEncoder``), and for a path under `app` asks only
    /// for the app's state: every step of an exploration checks its invariants, and encoding the
    /// whole of `device.state` and decoding it into a tree each time cost a third of the run.
    static func value(at path: String, on device: SimulatedDevice) throws(DeviceError) -> StoredValue? {
        try device.run { try await value(at: path, in: device) }
    }

    private static func value(at path: String, in device: SimulatedDevice) async throws -> StoredValue? {
        let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if components.first == "app" {
            return try value(at: components.dropFirst(), in: try await device.app.state(), of: path)
        }
        return try value(at: components[...], in: try await device.stateInWorld(), of: path)
    }

    private static func value(
        at components: ArraySlice<String>, in encodable: any Encodable, of path: String
    ) throws(DeviceError) -> StoredValue? {
        switch StatePathEncoder.find(components, in: encodable) {
        case .nothing: return nil
        case .value(let value): return value
        case .subtree(let found): return try decoded(at: [], in: found, of: path)
        case .unsupported: return try decoded(at: components, in: encodable, of: path)
        }
    }

    /// The value at `components` of `encodable`'s JSON, read back from the text.
    static func decoded(
        at components: ArraySlice<String>, in encodable: any Encodable, of path: String
    ) throws(DeviceError) -> StoredValue? {
        do {
            let decoder = JSONDecoder()
            decoder.userInfo[StateProbe.pathKey] = Array(components)
            return try decoder.decode(StateProbe.self, from: try JSONEncoder().encode(encodable)).value
        } catch {
            throw .internalFailure("device.state could not be read at \(path): \(error)")
        }
    }

    /// A value in a failure message: compact JSON with sorted keys, so that a replay's message
    /// is the same bytes in every process.
    static func show(_ value: StoredValue) -> String {
        ScenarioOutcome.json(value)
    }
}

extension ValueMatch {
    /// How the condition reads in a failure message.
    var wanted: String {
        switch self {
        case .equals(let value): "equals \(ScenarioCondition.show(value))"
        case .oneOf(let values): "in [\(values.map(ScenarioCondition.show).joined(separator: ", "))]"
        case .absent: "absent"
        }
    }
}

/// Follows a path (in the decoder's `userInfo`) down `device.state`'s JSON and decodes what
/// it finds there, nil when the path leads nowhere or to null.
private struct StateProbe: Decodable {
    static let pathKey = CodingUserInfoKey(rawValue: "clarityd.statePath")!

    let value: StoredValue?

    init(from decoder: any Decoder) throws {
        value = try Self.follow(ArraySlice(decoder.userInfo[Self.pathKey] as? [String] ?? []), in: decoder)
    }

    private static func follow(_ path: ArraySlice<String>, in decoder: any Decoder) throws -> StoredValue? {
        guard let component = path.first else { return try StateNode(from: decoder).storedValue }
        if let members = try? decoder.container(keyedBy: MemberKey.self) {
            let key = MemberKey(component)
            guard members.contains(key), try !members.decodeNil(forKey: key) else { return nil }
            return try follow(path.dropFirst(), in: try members.superDecoder(forKey: key))
        }
        guard let index = Int(component), index >= 0, var items = try? decoder.unkeyedContainer() else { return nil }
        while !items.isAtEnd {
            if items.currentIndex == index {
                guard try !items.decodeNil() else { return nil }
                return try follow(path.dropFirst(), in: try items.superDecoder())
            }
            _ = try items.decode(Skipped.self)
        }
        return nil
    }

    private struct MemberKey: CodingKey {
        let stringValue: String
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    /// An array item before the one wanted: read past, not decoded.
    private struct Skipped: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}

/// `device.state` as JSON, nulls included (a ``StoredValue`` has no null).
private enum StateNode: Decodable {
    case null
    case value(StoredValue)
    case array([StateNode])
    case object([String: StateNode])

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let items = try? single.decode([StateNode].self) {
            self = .array(items)
        } else if let members = try? single.decode([String: StateNode].self) {
            self = .object(members)
        } else {
            self = .value(try single.decode(StoredValue.self))
        }
    }

    var storedValue: StoredValue? {
        switch self {
        case .null: nil
        case .value(let value): value
        case .array(let items): .array(items.map { $0.storedValue ?? .string("null") })
        case .object(let members): .dictionary(members.compactMapValues(\.storedValue))
        }
    }
}
