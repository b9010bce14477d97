import Foundation

extension ScenarioCondition {
    /// Checks the condition on `device`; returns why it does not hold (nil when it does).
    func violation(on device: SimulatedDevice) throws(DeviceError) -> String? {
        switch self {
        case .store(let suite, let key, let match):
            let value = try device.storeGet(suite: suite, key: key)
            return match.matches(value) ? nil : "store \(key) \(match.wanted): got \(value.map(Self.show) ?? "absent")"
        case .shielded(let app, let wanted):
            let shielded = try device.isShielded(app)
            return shielded == wanted ? nil : "\(app) is \(shielded ? "" : "not ")shielded"
        case .state(let path, let match):
            let value = try Self.value(at: path, in: try device.state())
            return match.matches(value) ? nil : "state \(path) \(match.wanted): got \(value.map(Self.show) ?? "absent")"
        case .notification(let title, let body, let count):
            let matching = try device.notifications(since: nil).filter { note in
                (title.map(note.title.contains) ?? true) && (body.map(note.body.contains) ?? true)
            }
            let wanted = [title.map { "title containing \"\($0)\"" }, body.map { "body containing \"\($0)\"" }]
                .compactMap { $0 }.joined(separator: " and ")
            if let count {
                return matching.count == count ? nil : "\(count) notification(s) with \(wanted): got \(matching.count)"
            }
            return matching.isEmpty ? "a notification with \(wanted): none" : nil
        }
    }

    /// The value at a dotted path of `device.state` (array items by index), nil when absent
    /// or null.
    static func value(at path: String, in state: DeviceStateReport) throws(DeviceError) -> StoredValue? {
        var current: StateNode
        do {
            current = try JSONDecoder().decode(StateNode.self, from: try JSONEncoder().encode(state))
        } catch {
            throw .internalFailure("device.state could not be read back: \(error)")
        }
        for component in path.split(separator: ".", omittingEmptySubsequences: false) {
            switch current {
            case .object(let members): current = members[String(component)] ?? .null
            case .array(let items): current = Int(component).flatMap { items.indices.contains($0) ? items[$0] : nil } ?? .null
            default: current = .null
            }
        }
        return current.storedValue
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

extension SimulatedDevice {
    /// Whether any store's shield covers `bundle` now (by app or by its category).
    func isShielded(_ bundle: String) throws(DeviceError) -> Bool {
        let managedSettings = platform.managedSettings
        return try run { await managedSettings.shieldReason(for: bundle) != nil }
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
