import Foundation

/// A value in an App Group suite, typed like `UserDefaults` values (docs/platform.md).
///
/// On the wire and on disk a value is plain JSON; `data` is `{"$data": "<base64>"}` (plus, when
/// the bytes are JSON, a read-only `"$json"` view of them, so `store get` shows what an app
/// serialised). Whole numbers decode as `int`, others as `double`.
///
/// Not `indirect`: arrays and dictionaries hold their elements on the heap already, and a boxed
/// case's pointer, tagged in its spare bits, is invisible to LeakSanitizer, which reported the
/// registrations' top-level defaults (global values) as leaked in the fuzzers.
public enum StoredValue: Sendable, Hashable, Codable {
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case data(Data)
    case array([StoredValue])
    case dictionary([String: StoredValue])

    private enum DataKeys: String, CodingKey {
        case data = "$data"
        case json = "$json"
    }

    /// Any member name, to find what stands beside `$data`.
    private struct MemberKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// A data value is `{"$data": base64}`, optionally with the `$json` view it is read back
    /// with. Nothing else may stand beside `$data`, and a `$json` must be the bytes' own view:
    /// either would otherwise be dropped without a word (a value set must read back as set).
    public init(from decoder: any Decoder) throws {
        if let members = try? decoder.container(keyedBy: MemberKey.self),
            members.contains(MemberKey(stringValue: DataKeys.data.rawValue))
        {
            if let other = members.allKeys.first(where: { DataKeys(rawValue: $0.stringValue) == nil }) {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath + [other],
                        debugDescription: "not allowed beside $data (a data value is {\"$data\": \"<base64>\"})"))
            }
            let keyed = try decoder.container(keyedBy: DataKeys.self)
            let base64 = try keyed.decode(String.self, forKey: .data)
            guard let bytes = Data(base64Encoded: base64) else {
                throw DecodingError.dataCorruptedError(forKey: .data, in: keyed, debugDescription: "not base64")
            }
            if keyed.contains(.json) {
                let view = try keyed.decode(StoredValue.self, forKey: .json)
                let actual = try? JSONDecoder().decode(StoredValue.self, from: bytes)
                guard let actual, actual.sameValue(as: view) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .json, in: keyed,
                        debugDescription: "is the read-only JSON view of $data's bytes and does not match them: leave it out")
                }
            }
            self = .data(bytes)
            return
        }
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([StoredValue].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: StoredValue].self) {
            self = .dictionary(value)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected a bool, number, string, array or object (null is not a value)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        if case .data(let bytes) = self {
            var keyed = encoder.container(keyedBy: DataKeys.self)
            try keyed.encode(bytes.base64EncodedString(), forKey: .data)
            if let json = try? JSONDecoder().decode(StoredValue.self, from: bytes) {
                try keyed.encode(json, forKey: .json)
            }
            return
        }
        var container = encoder.singleValueContainer()
        switch self {
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .dictionary(let value): try container.encode(value)
        case .data: break
        }
    }

    /// The size the memory ledger charges when an extension reads this value: what the value
    /// takes encoded (bytes of data and strings, 8 per number, plus keys of containers).
    public var encodedSize: Int {
        switch self {
        case .bool: 1
        case .int, .double: 8
        case .string(let value): value.utf8.count
        case .data(let value): value.count
        case .array(let values): values.reduce(0) { $0 + $1.encodedSize }
        case .dictionary(let values): values.reduce(0) { $0 + $1.key.utf8.count + $1.value.encodedSize }
        }
    }

    // MARK: - Reads as UserDefaults answers them

    /// `bool(forKey:)`: a bool; a number other than 0; the strings `YES`/`true` (any case) or a
    /// number other than 0 written as a string. nil for data, arrays and dictionaries.
    public var boolValue: Bool? {
        switch self {
        case .bool(let value): value
        case .int(let value): value != 0
        case .double(let value): value != 0
        case .string(let text):
            ["yes", "true"].contains(text.lowercased()) || (Double(text).map { $0 != 0 } ?? false)
        default: nil
        }
    }

    /// `integer(forKey:)`: an integer; a double truncated toward zero, clamped to `Int`'s range
    /// (so `1e19` reads as `Int.max`, never a crash); a bool as 1 or 0; a string holding a
    /// number, read the same way. nil for data, arrays and dictionaries.
    public var intValue: Int? {
        switch self {
        case .int(let value): value
        case .double(let value): Self.clampedInteger(value)
        case .bool(let value): value ? 1 : 0
        case .string(let text): Int(text) ?? Double(text).flatMap(Self.clampedInteger)
        default: nil
        }
    }

    /// `double(forKey:)`: a number; a bool as 1 or 0; a string holding a number.
    public var doubleValue: Double? {
        switch self {
        case .double(let value): value
        case .int(let value): Double(value)
        case .bool(let value): value ? 1 : 0
        case .string(let text): Double(text)
        default: nil
        }
    }

    /// `string(forKey:)`: a string, or a number written out (`5`, `2.5`); nil otherwise.
    public var stringValue: String? {
        switch self {
        case .string(let value): value
        case .int(let value): String(value)
        case .double(let value): String(value)
        default: nil
        }
    }

    public var dataValue: Data? {
        if case .data(let value) = self { return value }
        return nil
    }

    /// `value` truncated toward zero and clamped to `Int`'s range; nil for NaN.
    private static func clampedInteger(_ value: Double) -> Int? {
        guard !value.isNaN else { return nil }
        if value >= 9.2233720368547758e18 { return .max }
        if value <= -9.2233720368547758e18 { return .min }
        return Int(value)
    }

    /// How deep arrays and dictionaries nest; a scalar is 0.
    public var depth: Int {
        switch self {
        case .array(let values): 1 + (values.map(\.depth).max() ?? 0)
        case .dictionary(let values): 1 + (values.values.map(\.depth).max() ?? 0)
        default: 0
        }
    }
}

extension StoredValue {
    /// Equality with numbers compared by value, recursively.
    public func sameValue(as other: StoredValue) -> Bool {
        switch (self, other) {
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)): Double(a) == b
        case (.array(let a), .array(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.sameValue(as: $1) }
        case (.dictionary(let a), .dictionary(let b)):
            a.count == b.count && a.allSatisfy { key, value in b[key].map { value.sameValue(as: $0) } ?? false }
        default: self == other
        }
    }
}
