import JSONValues
import Foundation

extension TestDevice {
    /// TCA TestStore's state assertion: the app's own state (`device.state`'s `app`, as
    /// `State`) must be what it was at the last `expectState` — at first, when the device was
    /// made — changed by `change`, exactly:
    ///
    /// ```swift
    /// try device.send(.shieldPress(app: instagram, button: .secondary), effects: […])
    /// try device.expectState(DailyLimitStatus.self) { $0.requestsToday = 1 }
    /// ```
    ///
    /// A difference throws ``StateMismatch``, naming each field that differs with what was
    /// expected and what the app holds. Either way the next `expectState` starts from the state
    /// the app holds now.
    public func expectState<State: Codable>(_ type: State.Type, _ change: (inout State) throws -> Void) throws {
        let actual = try appState(as: JSONValue.self)
        defer { stateBaseline = actual }
        let baseline = stateBaseline ?? actual
        var state = try JSONValueDecoder().decode(State.self, from: baseline)
        try change(&state)
        let expected = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(state))
        let differences = StateMismatch.differences(expected, actual, at: "")
        if !differences.isEmpty { throw StateMismatch(differences: differences) }
    }
}

/// The app's state is not what ``TestDevice/expectState(_:_:)`` expected: each field that
/// differs (`requestsToday`, `apps[1].hp`), with the expected value and the app's.
public struct StateMismatch: Error, CustomStringConvertible {
    public struct Difference: Sendable, Equatable {
        public let path: String
        public let expected: JSONValue?
        public let actual: JSONValue?
    }

    public let differences: [Difference]

    public var description: String {
        (["app state differs from the expected change:"]
            + differences.map { "  \($0.path): expected \(Self.show($0.expected)), got \(Self.show($0.actual))" })
            .joined(separator: "\n")
    }

    private static func show(_ value: JSONValue?) -> String {
        guard let value else { return "nothing" }
        return (try? JSONWire.bytes(value)).map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
    }

    /// The paths at which `expected` and `actual` differ, depth first, keys in order.
    static func differences(_ expected: JSONValue?, _ actual: JSONValue?, at path: String) -> [Difference] {
        switch (expected, actual) {
        case (.object(let wanted)?, .object(let held)?):
            return Set(wanted.keys).union(held.keys).sorted().flatMap { key in
                differences(wanted[key], held[key], at: path.isEmpty ? key : "\(path).\(key)")
            }
        case (.array(let wanted)?, .array(let held)?) where wanted.count == held.count:
            return zip(wanted, held).enumerated().flatMap { index, pair in differences(pair.0, pair.1, at: "\(path)[\(index)]") }
        default:
            return expected == actual ? [] : [Difference(path: path.isEmpty ? "(the state)" : path, expected: expected, actual: actual)]
        }
    }
}
