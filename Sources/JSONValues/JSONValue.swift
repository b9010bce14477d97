import Foundation

/// Any JSON value, as it travels on the wire.
///
/// Integers and doubles are kept apart so that `5` round-trips as `5`, not `5.0`.
/// Objects encode with sorted keys (see ``JSONWire``), which keeps every reply and
/// trace byte-for-byte reproducible.
public enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The member `key` of an object, or nil.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var intValue: Int? {
        switch self {
        case .int(let value): return value
        case .double(let value) where value.rounded() == value && abs(value) < 9e15: return Int(value)
        default: return nil
        }
    }

    public var doubleValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The JSON type name, for error messages ("expected string, got number").
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int, .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByFloatLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

/// The one JSON encoding used on the wire and in traces: sorted keys, no escaped slashes,
/// one line. Converts between `Codable` types and ``JSONValue``.
///
/// Encoding goes through ``JSONOutput`` (and, for types other than ``JSONValue``, the tree
/// encoder), which write the same bytes as `JSONEncoder` with `[.sortedKeys,
/// .withoutEscapingSlashes]` several times faster; whatever they do not reproduce (a NaN, very
/// deep nesting, a value that encodes nothing) is handed to `JSONEncoder` itself, so the bytes —
/// and the errors — are those of ``encodeWithFoundation(_:)`` in every case.
public enum JSONWire {
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        Data(try bytes(value))
    }

    /// The encoding of `value`, as bytes.
    public static func bytes<T: Encodable>(_ value: T) throws -> [UInt8] {
        var output = JSONOutput()
        if append(value, to: &output) { return output.bytes }
        return Array(try encodeWithFoundation(value))
    }

    /// Appends the encoding of `value` to `bytes`, falling back to `JSONEncoder` like ``bytes(_:)``.
    public static func append<T: Encodable>(_ value: T, to bytes: inout [UInt8]) throws {
        var output = JSONOutput(appendingTo: bytes)
        bytes = []
        defer { bytes = output.bytes }
        let start = output.bytes.count
        if append(value, to: &output) { return }
        output.bytes.removeSubrange(start...)
        output.bytes.append(contentsOf: try encodeWithFoundation(value))
    }

    /// Writes `value` with the fast writers; false when it must be left to `JSONEncoder`.
    private static func append<T: Encodable>(_ value: T, to output: inout JSONOutput) -> Bool {
        do {
            if T.self == JSONValue.self {
                try output.write(value as! JSONValue)
            } else {
                guard let node = try? JSONTreeEncoder.node(value) else { return false }
                try node.write(to: &output)
            }
            return true
        } catch {
            return false
        }
    }

    public static func encodeString<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try bytes(value), as: UTF8.self)
    }

    /// The reference encoding: `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]`.
    public static func encodeWithFoundation<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    /// Decodes `data`, which must be strict JSON (RFC 8259, as ``JSONReader`` reads requests):
    /// Foundation's `JSONDecoder` alone also takes what is not JSON, such as a trailing comma
    /// (`{"steps":[{"advance":30},]}`, issue 22), and a scenario file or an argument must not
    /// mean one thing here and be refused elsewhere.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let data = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data
        let value = try JSONReader.parse(Data(data))
        if let same = value as? T { return same }
        return try JSONDecoder().decode(type, from: data)
    }

    /// Converts any `Encodable` value to a ``JSONValue`` tree: the value that decoding its
    /// encoding gives (``valueWithFoundation(_:)``), built without the text in between.
    public static func value<T: Encodable>(_ value: T) throws -> JSONValue {
        if T.self == JSONValue.self { return value as! JSONValue }
        if let node = try? JSONTreeEncoder.node(value) { return node.decodedValue }
        return try valueWithFoundation(value)
    }

    /// The reference conversion: encoded by `JSONEncoder`, decoded back by `JSONDecoder`.
    static func valueWithFoundation<T: Encodable>(_ value: T) throws -> JSONValue {
        if let json = value as? JSONValue { return json }
        return try JSONDecoder().decode(JSONValue.self, from: encodeWithFoundation(value))
    }

    /// Decodes a typed value from a ``JSONValue`` tree.
    public static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        if let same = value as? T { return same }
        return try decode(type, from: encode(value))
    }
}
