import Foundation

/// An `Encoder` that builds the tree `JSONEncoder` would serialise, without serialising it.
///
/// ``JSONWire`` uses it for two things: writing any `Encodable` with ``JSONOutput`` (numbers keep
/// the text `JSONEncoder` gives them), and ``JSONWire/value(_:)``, which must give what decoding
/// that text back into a ``JSONValue`` gives (`300.0` → `.int(300)`, `1e+16` → `.int(…)`,
/// `UInt64.max` → `.double(…)`), without the text.
///
/// It follows `JSONEncoder`'s default strategies: `Date` as its `timeIntervalSinceReferenceDate`,
/// `Data` as Base64, `URL` as `absoluteString`, `Decimal` as its `description`; a nested value that
/// encodes nothing becomes `{}`; a key encoded twice keeps the last value. Anything it does not
/// reproduce — a non-finite number, a top-level value that encodes nothing, containers mixed at
/// one path — throws, and ``JSONWire`` falls back to `JSONEncoder`.
struct JSONTreeEncoder {
    /// A failure that the fallback to `JSONEncoder` reports properly.
    struct Unsupported: Error {}

    /// One encoded value. `number` keeps `JSONEncoder`'s text for the numbers that are neither
    /// an `Int` nor a `Double` (`Float`, `UInt64` beyond `Int.max`, `Decimal`).
    enum Node {
        case null
        case bool(Bool)
        case int(Int)
        case double(Double)
        case number(String)
        case string(String)
        case array([Node])
        case object([String: Node])
    }

    /// Encodes `value` into a tree.
    static func node<T: Encodable>(_ value: T) throws -> Node {
        if let direct = try directNode(value) { return direct }
        let encoder = TreeEncoder(codingPath: [])
        try value.encode(to: encoder)
        guard !encoder.failed, let slot = encoder.slot else { throw Unsupported() }
        return try slot.resolve()
    }

    /// Values `JSONEncoder` treats specially, and the plain ones that need no encoder.
    @inline(__always)
    fileprivate static func directNode<T: Encodable>(_ value: T) throws -> Node? {
        if T.self == JSONValue.self { return node(json: value as! JSONValue) }
        if T.self == String.self { return .string(value as! String) }
        if T.self == Int.self { return .int(value as! Int) }
        if T.self == Double.self { return try node(double: value as! Double) }
        if T.self == Bool.self { return .bool(value as! Bool) }
        if T.self == Date.self { return try node(double: (value as! Date).timeIntervalSinceReferenceDate) }
        if T.self == Data.self { return .string((value as! Data).base64EncodedString()) }
        if T.self == URL.self { return .string((value as! URL).absoluteString) }
        if T.self == Decimal.self {
            // A NaN decimal makes `JSONEncoder` write `NaN`, which is not JSON: leave it to JSONEncoder.
            let decimal = value as! Decimal
            guard !decimal.isNaN else { throw Unsupported() }
            return .number(decimal.description)
        }
        return nil
    }

    static func node(json: JSONValue) -> Node {
        switch json {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .string(let string): .string(string)
        case .array(let elements): .array(elements.map(node(json:)))
        case .object(let members): .object(members.mapValues(node(json:)))
        }
    }

    @inline(__always)
    static func node(double: Double) throws -> Node {
        guard double.isFinite else { throw Unsupported() }
        return .double(double)
    }

    static func node(float: Float) throws -> Node {
        guard float.isFinite else { throw Unsupported() }
        return .number(JSONOutput.text(of: float))
    }

    static func node<I: FixedWidthInteger>(integer: I) -> Node {
        if let fits = Int(exactly: integer) { return .int(fits) }
        return .number(integer.description)
    }
}

// MARK: - Reading the tree

extension JSONTreeEncoder.Node {
    /// What decoding this value's JSON text into a ``JSONValue`` with `JSONDecoder` gives (see
    /// ``decoded(text:)``).
    var decodedValue: JSONValue {
        switch self {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .int(let number): .int(number)
        case .double(let number): Self.decoded(number)
        case .number(let text): Self.decoded(text: text)
        case .string(let string): .string(string)
        case .array(let elements): .array(elements.map(\.decodedValue))
        case .object(let members): .object(members.mapValues(\.decodedValue))
        }
    }

    /// A double as `JSONDecoder` reads back the text `JSONEncoder` gave it.
    @inline(__always)
    static func decoded(_ number: Double) -> JSONValue {
        guard Int(exactly: number) != nil else { return .double(number) }
        if number.magnitude < 0x1p53 { return .int(Int(number)) }
        return decoded(text: JSONOutput.text(of: number))
    }

    /// What `JSONDecoder` makes of number text when decoding a ``JSONValue`` (which tries `Int`,
    /// then `Double`). For `Int` it reads plain digits directly; any other text goes through
    /// `Double`, which must convert exactly — and from 2^53 on, where doubles are sparse, the
    /// integer comes from the text's decimal digits (through `Decimal`), not from the double:
    /// `1.0301477808631133e+18` is 1030147780863113300. Whatever does not make an `Int` is a double.
    static func decoded(text: String) -> JSONValue {
        let utf8 = text.utf8
        let plain = !utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        if plain, let integer = Int(text) { return .int(integer) }
        guard let double = Double(text) else { return .string(text) }
        guard Int(exactly: double) != nil else { return .double(double) }
        if double.magnitude < 0x1p53 { return .int(Int(double)) }
        return decimalInteger(text).map(JSONValue.int) ?? .double(double)
    }

    /// The integer a number's decimal text denotes, as `FixedWidthInteger(Decimal)` computes it
    /// (magnitude in `UInt64`, a negative exponent truncating); nil when it does not fit `Int`.
    static func decimalInteger(_ text: String) -> Int? {
        var magnitude: UInt64 = 0
        var negative = false
        var fractionDigits = 0
        var inFraction = false
        var exponent = 0
        var exponentNegative = false
        var inExponent = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "-"):
                if inExponent { exponentNegative = true } else { negative = true }
            case UInt8(ascii: "+"): break
            case UInt8(ascii: "."): inFraction = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"): inExponent = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = Int(byte - UInt8(ascii: "0"))
                if inExponent {
                    exponent = exponent * 10 + digit
                    if exponent > 400 { return nil }
                } else {
                    let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
                    let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
                    guard !overflow1, !overflow2 else { return nil }
                    magnitude = sum
                    if inFraction { fractionDigits += 1 }
                }
            default: return nil
            }
        }
        var scale = (exponentNegative ? -exponent : exponent) - fractionDigits
        while scale > 0 {
            let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            magnitude = times10
            scale -= 1
        }
        while scale < 0 {
            magnitude /= 10
            scale += 1
        }
        guard let value = Int(exactly: magnitude) else { return nil }
        return negative ? -value : value
    }

    /// Writes this value as `JSONEncoder` writes the tree it builds.
    func write(to output: inout JSONOutput, depth: Int = 0) throws(JSONOutput.Unsupported) {
        switch self {
        case .null: output.append("null")
        case .bool(let flag): flag ? output.append("true") : output.append("false")
        case .int(let number): output.write(number)
        case .double(let number): try output.write(number)
        case .number(let text): output.writeNumberText(text)
        case .string(let string): output.write(string)
        case .array(let elements):
            guard depth < JSONOutput.maxDepth else { throw JSONOutput.Unsupported() }
            output.bytes.append(UInt8(ascii: "["))
            var first = true
            for element in elements {
                if !first { output.bytes.append(UInt8(ascii: ",")) }
                first = false
                try element.write(to: &output, depth: depth + 1)
            }
            output.bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            guard depth < JSONOutput.maxDepth else { throw JSONOutput.Unsupported() }
            output.bytes.append(UInt8(ascii: "{"))
            var first = true
            for (key, member) in members.sorted(by: { JSONOutput.precedes($0.key, $1.key) }) {
                if !first { output.bytes.append(UInt8(ascii: ",")) }
                first = false
                output.writeKey(key)
                try member.write(to: &output, depth: depth + 1)
            }
            output.bytes.append(UInt8(ascii: "}"))
        }
    }
}

// MARK: - The encoder

/// Where one value goes while it is being encoded: a finished node, or a container that its
/// encoder may still add to.
private enum Slot {
    case node(JSONTreeEncoder.Node)
    case array(ArrayBox)
    case object(ObjectBox)
    /// A `superEncoder()`: whatever it ends up holding (`{}` when nothing).
    case encoder(TreeEncoder)

    func resolve() throws -> JSONTreeEncoder.Node {
        switch self {
        case .node(let node): return node
        case .array(let box): return .array(try box.elements.map { try $0.resolve() })
        case .object(let box): return .object(try box.members.mapValues { try $0.resolve() })
        case .encoder(let encoder):
            guard !encoder.failed else { throw JSONTreeEncoder.Unsupported() }
            return try encoder.slot?.resolve() ?? .object([:])
        }
    }
}

private final class ArrayBox {
    var elements: [Slot] = []
}

private final class ObjectBox {
    var members: [String: Slot] = [:]
}

private final class TreeEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var slot: Slot?
    /// Set when the value used the encoder in a way this encoder does not reproduce.
    var failed = false

    init(codingPath: [any CodingKey]) {
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let box: ObjectBox
        switch slot {
        case .object(let existing)?: box = existing
        case nil:
            box = ObjectBox()
            slot = .object(box)
        default:
            failed = true
            box = ObjectBox()
        }
        return KeyedEncodingContainer(TreeKeyedContainer<Key>(box: box, encoder: self, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let box: ArrayBox
        switch slot {
        case .array(let existing)?: box = existing
        case nil:
            box = ArrayBox()
            slot = .array(box)
        default:
            failed = true
            box = ArrayBox()
        }
        return TreeUnkeyedContainer(box: box, encoder: self, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        TreeSingleValueContainer(encoder: self)
    }

    /// The slot of a value met inside a container.
    func slot<T: Encodable>(for value: T, key: (any CodingKey)?) throws -> Slot {
        if let direct = try JSONTreeEncoder.directNode(value) { return .node(direct) }
        let path = key.map { codingPath + [$0] } ?? codingPath
        let child = TreeEncoder(codingPath: path)
        try value.encode(to: child)
        if child.failed { failed = true }
        return child.slot ?? .node(.object([:]))
    }
}

private struct TreeKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: ObjectBox
    let encoder: TreeEncoder
    let codingPath: [any CodingKey]

    private func set(_ node: JSONTreeEncoder.Node, _ key: Key) { box.members[key.stringValue] = .node(node) }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(try JSONTreeEncoder.node(double: value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(try JSONTreeEncoder.node(float: value), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.int(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(JSONTreeEncoder.node(integer: value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(JSONTreeEncoder.node(integer: value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(JSONTreeEncoder.node(integer: value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(JSONTreeEncoder.node(integer: value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(JSONTreeEncoder.node(integer: value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(JSONTreeEncoder.node(integer: value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(JSONTreeEncoder.node(integer: value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(JSONTreeEncoder.node(integer: value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(JSONTreeEncoder.node(integer: value), key) }
    mutating func encode(_ value: Int128, forKey key: Key) throws { set(JSONTreeEncoder.node(integer: value), key) }
    mutating func encode(_ value: UInt128, forKey key: Key) throws { set(JSONTreeEncoder.node(integer: value), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        box.members[key.stringValue] = try encoder.slot(for: value, key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested: ObjectBox
        if case .object(let existing)? = box.members[key.stringValue] {
            nested = existing
        } else {
            nested = ObjectBox()
            box.members[key.stringValue] = .object(nested)
        }
        return KeyedEncodingContainer(
            TreeKeyedContainer<NestedKey>(box: nested, encoder: encoder, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested: ArrayBox
        if case .array(let existing)? = box.members[key.stringValue] {
            nested = existing
        } else {
            nested = ArrayBox()
            box.members[key.stringValue] = .array(nested)
        }
        return TreeUnkeyedContainer(box: nested, encoder: encoder, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }

    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

    private func superEncoder(named name: String) -> any Encoder {
        let child = TreeEncoder(codingPath: codingPath)
        box.members[name] = .encoder(child)
        return child
    }
}

private struct TreeUnkeyedContainer: UnkeyedEncodingContainer {
    let box: ArrayBox
    let encoder: TreeEncoder
    let codingPath: [any CodingKey]

    var count: Int { box.elements.count }

    private func add(_ node: JSONTreeEncoder.Node) { box.elements.append(.node(node)) }

    mutating func encodeNil() throws { add(.null) }
    mutating func encode(_ value: Bool) throws { add(.bool(value)) }
    mutating func encode(_ value: String) throws { add(.string(value)) }
    mutating func encode(_ value: Double) throws { add(try JSONTreeEncoder.node(double: value)) }
    mutating func encode(_ value: Float) throws { add(try JSONTreeEncoder.node(float: value)) }
    mutating func encode(_ value: Int) throws { add(.int(value)) }
    mutating func encode(_ value: Int8) throws { add(JSONTreeEncoder.node(integer: value)) }
    mutating func encode(_ value: Int16) throws { add(JSONTreeEncoder.node(integer: value)) }
    mutating func encode(_ value: Int32) throws { add(JSONTreeEncoder.node(integer: value)) }
    mutating func encode(_ value: Int64) throws { add(JSONTreeEncoder.node(integer: value)) }
    mutating func encode(_ value: UInt) throws { add(JSONTreeEncoder.node(integer: value)) }
    mutating func encode(_ value: UInt8) throws { add(JSONTreeEncoder.node(integer: value)) }
    mutating func encode(_ value: UInt16) throws { add(JSONTreeEncoder.node(integer: value)) }
    mutating func encode(_ value: UInt32) throws { add(JSONTreeEncoder.node(integer: value)) }
    mutating func encode(_ value: UInt64) throws { add(JSONTreeEncoder.node(integer: value)) }
    mutating func encode(_ value: Int128) throws { add(JSONTreeEncoder.node(integer: value)) }
    mutating func encode(_ value: UInt128) throws { add(JSONTreeEncoder.node(integer: value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        box.elements.append(try encoder.slot(for: value, key: nil))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = ObjectBox()
        box.elements.append(.object(nested))
        return KeyedEncodingContainer(TreeKeyedContainer<NestedKey>(box: nested, encoder: encoder, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = ArrayBox()
        box.elements.append(.array(nested))
        return TreeUnkeyedContainer(box: nested, encoder: encoder, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        let child = TreeEncoder(codingPath: codingPath)
        box.elements.append(.encoder(child))
        return child
    }
}

private struct TreeSingleValueContainer: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ node: JSONTreeEncoder.Node) {
        if encoder.slot != nil { encoder.failed = true }
        encoder.slot = .node(node)
    }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(try JSONTreeEncoder.node(double: value)) }
    mutating func encode(_ value: Float) throws { set(try JSONTreeEncoder.node(float: value)) }
    mutating func encode(_ value: Int) throws { set(.int(value)) }
    mutating func encode(_ value: Int8) throws { set(JSONTreeEncoder.node(integer: value)) }
    mutating func encode(_ value: Int16) throws { set(JSONTreeEncoder.node(integer: value)) }
    mutating func encode(_ value: Int32) throws { set(JSONTreeEncoder.node(integer: value)) }
    mutating func encode(_ value: Int64) throws { set(JSONTreeEncoder.node(integer: value)) }
    mutating func encode(_ value: UInt) throws { set(JSONTreeEncoder.node(integer: value)) }
    mutating func encode(_ value: UInt8) throws { set(JSONTreeEncoder.node(integer: value)) }
    mutating func encode(_ value: UInt16) throws { set(JSONTreeEncoder.node(integer: value)) }
    mutating func encode(_ value: UInt32) throws { set(JSONTreeEncoder.node(integer: value)) }
    mutating func encode(_ value: UInt64) throws { set(JSONTreeEncoder.node(integer: value)) }
    mutating func encode(_ value: Int128) throws { set(JSONTreeEncoder.node(integer: value)) }
    mutating func encode(_ value: UInt128) throws { set(JSONTreeEncoder.node(integer: value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if encoder.slot != nil { encoder.failed = true }
        encoder.slot = try encoder.slot(for: value, key: nil)
    }
}
