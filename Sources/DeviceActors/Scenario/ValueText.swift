import Foundation
@_spi(Host) import SimulatediOS

/// A value as a story and a causal chain print it: compact JSON cut to a length. Data that
/// holds JSON or a property list (an app's `Codable` blob, `appHealthData`) prints as what it
/// holds, sorted keys, not as a base64 `$data` object; other data as `<n bytes>`.
enum ValueText {
    /// The longest text printed; a longer one is cut, ending in `…`.
    static let limit = 60

    static func short(_ value: StoredValue, limit: Int = ValueText.limit) -> String {
        cut(text(value), limit: limit)
    }

    /// Any other value (a shield's applications) as compact JSON, cut.
    static func short(_ value: some Encodable, limit: Int = ValueText.limit) -> String {
        cut(ScenarioOutcome.json(value), limit: limit)
    }

    private static func cut(_ text: String, limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit)) + "…"
    }

    private static func text(_ value: StoredValue) -> String {
        switch value {
        case .bool, .int, .double, .string: ScenarioOutcome.json(value)
        case .array(let items): "[" + items.map(text).joined(separator: ",") + "]"
        case .dictionary(let members):
            "{" + members.sorted { $0.key < $1.key }.map { ScenarioOutcome.json($0.key) + ":" + text($0.value) }
                .joined(separator: ",") + "}"
        case .data(let data): text(data)
        }
    }

    /// What the bytes hold: JSON as JSON, a property list as JSON, anything else its size.
    private static func text(_ data: Data) -> String {
        let object =
            (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
            ?? (try? PropertyListSerialization.propertyList(from: data, format: nil)).map(jsonCompatible)
        guard let object,
            let json = try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
        else { return "<\(data.count) bytes>" }
        return String(decoding: json, as: UTF8.self)
    }

    /// A property list's object with what JSON has no form for made text: a date as ISO 8601,
    /// data as its size.
    private static func jsonCompatible(_ object: Any) -> Any {
        switch object {
        case let date as Date: ISO8601DateFormatter().string(from: date)
        case let data as Data: "<\(data.count) bytes>"
        case let array as [Any]: array.map(jsonCompatible)
        case let dictionary as [String: Any]: dictionary.mapValues(jsonCompatible)
        default: object
        }
    }
}
