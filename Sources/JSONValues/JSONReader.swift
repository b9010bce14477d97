import Foundation

/// Reads JSON text (RFC 8259) into a ``JSONValue``: the daemon's hot path for every request line.
///
/// Gives the same values as decoding `JSONValue` with `JSONDecoder` — a number that is integral
/// and fits `Int` becomes `.int` (`5`, `5.0`, `1e3`), any other finite number `.double`, and a
/// duplicated key keeps its first value — about ten times faster, because it never throws and
/// catches its way through the candidate types. Input that is not valid UTF-8 JSON, a
/// number out of `Double` range, or nesting deeper than ``maxDepth`` (which would otherwise
/// exhaust the stack on hostile input) is refused with ``Malformed``.
package struct JSONReader {
    /// Arrays and objects nested deeper than this are refused.
    static let maxDepth = 512

    /// Why the text is not JSON, and the byte offset where that became clear.
    struct Malformed: Error, Equatable, CustomStringConvertible {
        let offset: Int
        let reason: String

        var description: String { "\(reason) at byte offset \(offset)" }
    }

    package static func parse(_ data: Data) throws -> JSONValue {
        try data.withUnsafeBytes { raw in try parse(raw) }
    }

    package static func parse(_ raw: UnsafeRawBufferPointer) throws -> JSONValue {
        var reader = JSONReader(bytes: raw.bindMemory(to: UInt8.self))
        let value = try reader.readValue(depth: 0)
        reader.skipWhitespace()
        guard reader.index == reader.bytes.count else { throw reader.malformed("unexpected text after the value") }
        return value
    }

    /// Parses one JSON value, as ``parse(_:)`` does, but an object at the top is not built: each
    /// member called one of `names` is handed to `keep` with the index of its name (only the
    /// first of a duplicated name, the one ``parse(_:)`` keeps), and the others are read, so
    /// malformed text is still refused, and dropped. Returns nil for an object, else the value.
    /// The daemon reads each request line so: its four members without a hashed dictionary.
    package static func parse(
        _ raw: UnsafeRawBufferPointer, keepingMembers names: [StaticString], _ keep: (Int, JSONValue) -> Void
    ) throws -> JSONValue? {
        precondition(names.count <= 64, "at most 64 members are kept")
        var reader = JSONReader(bytes: raw.bindMemory(to: UInt8.self))
        reader.skipWhitespace()
        var value: JSONValue?
        if reader.current == UInt8(ascii: "{") {
            try reader.readMembers(names, keep)
        } else {
            value = try reader.readValue(depth: 0)
        }
        reader.skipWhitespace()
        guard reader.index == reader.bytes.count else { throw reader.malformed("unexpected text after the value") }
        return value
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private func malformed(_ reason: String) -> Malformed {
        Malformed(offset: index, reason: reason)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func readValue(depth: Int) throws -> JSONValue {
        skipWhitespace()
        switch current {
        case UInt8(ascii: "{")?: return try readObject(depth: depth + 1)
        case UInt8(ascii: "[")?: return try readArray(depth: depth + 1)
        case UInt8(ascii: "\"")?: return .string(try readString())
        case UInt8(ascii: "t")?: return try readLiteral("true", .bool(true))
        case UInt8(ascii: "f")?: return try readLiteral("false", .bool(false))
        case UInt8(ascii: "n")?: return try readLiteral("null", .null)
        case nil: throw malformed("unexpected end of input")
        default: return try readNumber()
        }
    }

    private mutating func readLiteral(_ word: StaticString, _ value: JSONValue) throws -> JSONValue {
        let count = word.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: count)
        guard bytes.count - index >= count, expected.elementsEqual(bytes[index..<index + count]) else {
            throw malformed("invalid literal")
        }
        index += count
        return value
    }

    private mutating func expect(_ byte: UInt8, _ reason: @autoclosure () -> String) throws {
        skipWhitespace()
        guard current == byte else { throw malformed(reason()) }
        index += 1
    }

    private mutating func readObject(depth: Int) throws -> JSONValue {
        guard depth <= Self.maxDepth else { throw malformed("nested too deeply") }
        var members: [String: JSONValue] = [:]
        members.reserveCapacity(4)
        try readMembers(depth: depth, name: { try $0.readString() }) { key, value in
            // Inserts `value` only when `key` is new (the first of duplicated keys wins), hashing once.
            Self.keep(&members[key, default: value])
        }
        return .object(members)
    }

    @inline(__always)
    private static func keep(_ value: inout JSONValue) {}

    /// Reads the object starting here (at depth 1), handing the first of each member called one
    /// of `names` to `keep`.
    private mutating func readMembers(_ names: [StaticString], _ keep: (Int, JSONValue) -> Void) throws {
        var kept: UInt64 = 0
        try readMembers(depth: 1, name: { try $0.readMemberName(among: names) }) { slot, value in
            guard let slot, kept & (1 << slot) == 0 else { return }
            kept |= 1 << slot
            keep(slot, value)
        }
    }

    /// Reads an object from its `{` to its `}`: each member's name with `name` (called at its
    /// opening quote), then its value (values nested at `depth`), handed to `member` in order.
    /// Inlined into both callers, so that every request line's reading calls no closure.
    @inline(__always)
    private mutating func readMembers<Name>(
        depth: Int, name readName: (inout JSONReader) throws -> Name, _ member: (Name, JSONValue) -> Void
    ) throws {
        index += 1
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw malformed("expected a member name") }
            let name = try readName(&self)
            try expect(UInt8(ascii: ":"), "expected ':' after a member name")
            member(name, try readValue(depth: depth))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ",")?: index += 1
            case UInt8(ascii: "}")?:
                index += 1
                return
            default: throw malformed("expected ',' or '}' in an object")
            }
        }
    }

    /// Reads a member name starting at its opening quote; returns which of `names` it is. A name
    /// of plain ASCII (no escape, no control character) is compared in place, without a `String`.
    private mutating func readMemberName(among names: [StaticString]) throws -> Int? {
        var end = index + 1
        while end < bytes.count, (0x20..<0x80).contains(bytes[end]), bytes[end] != UInt8(ascii: "\""),
            bytes[end] != UInt8(ascii: "\\")
        {
            end += 1
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            let start = bytes.baseAddress! + index + 1
            let length = end - index - 1
            index = end + 1
            return names.firstIndex { $0.utf8CodeUnitCount == length && memcmp($0.utf8Start, start, length) == 0 }
        }
        let name = try readString()
        return names.firstIndex { $0.description == name }
    }

    private mutating func readArray(depth: Int) throws -> JSONValue {
        guard depth <= Self.maxDepth else { throw malformed("nested too deeply") }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try readValue(depth: depth))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ",")?: index += 1
            case UInt8(ascii: "]")?:
                index += 1
                return .array(elements)
            default: throw malformed("expected ',' or ']' in an array")
            }
        }
    }

    /// Reads a string starting at its opening quote. Runs without escapes are taken as they are.
    private mutating func readString() throws -> String {
        index += 1
        var utf8: [UInt8] = []
        var runStart = index
        var ascii = true
        while true {
            guard let byte = current else { throw malformed("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                let run = UnsafeBufferPointer(rebasing: bytes[runStart..<index])
                index += 1
                // ASCII is valid UTF-8 as it is: no need for the (slower) validating initialiser.
                if utf8.isEmpty, ascii { return String(decoding: run, as: UTF8.self) }
                if utf8.isEmpty, let string = String(validating: run, as: UTF8.self) { return string }
                utf8.append(contentsOf: run)
                guard let string = String(validating: utf8, as: UTF8.self) else {
                    throw malformed("a string is not valid UTF-8")
                }
                return string
            case UInt8(ascii: "\\"):
                utf8.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                index += 1
                try readEscape(into: &utf8)
                runStart = index
            case ..<0x20:
                throw malformed("a control character inside a string must be escaped")
            case 0x80...:
                ascii = false
                index += 1
            default:
                index += 1
            }
        }
    }

    private mutating func readEscape(into utf8: inout [UInt8]) throws {
        guard let byte = current else { throw malformed("unterminated escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = UInt32(try readHex4())
            if (0xD800..<0xDC00).contains(scalar) {
                let backslash = UInt8(ascii: "\\")
                guard bytes.count - index >= 6, bytes[index] == backslash, bytes[index + 1] == UInt8(ascii: "u") else {
                    throw malformed("unpaired surrogate in a \\u escape")
                }
                index += 2
                let low = UInt32(try readHex4())
                guard (0xDC00..<0xE000).contains(low) else { throw malformed("unpaired surrogate in a \\u escape") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw malformed("unpaired surrogate in a \\u escape") }
            utf8.append(contentsOf: UTF8.encode(unicode)!)
        default:
            index -= 1
            throw malformed("invalid escape")
        }
    }

    private mutating func readHex4() throws -> UInt16 {
        guard bytes.count - index >= 4 else { throw malformed("a \\u escape needs four hex digits") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw malformed("a \\u escape needs four hex digits")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    /// Reads `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    private mutating func readNumber() throws -> JSONValue {
        let start = index
        var isInteger = true
        if current == UInt8(ascii: "-") { index += 1 }
        switch current {
        case UInt8(ascii: "0")?: index += 1
        case (UInt8(ascii: "1")...UInt8(ascii: "9"))?: skipDigits()
        default: throw malformed("unexpected character")
        }
        if current == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard skipRequiredDigits() else { throw malformed("expected digits after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard skipRequiredDigits() else { throw malformed("expected digits in the exponent") }
        }
        // Up to 18 digits always fit `Int`: read them in place (request ids, counts), without a `String`.
        let negative = bytes[start] == UInt8(ascii: "-")
        if isInteger, index - start - (negative ? 1 : 0) <= 18 {
            var magnitude = 0
            for byte in bytes[(negative ? start + 1 : start)..<index] { magnitude = magnitude * 10 + Int(byte - UInt8(ascii: "0")) }
            return .int(negative ? -magnitude : magnitude)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let integer = Int(text) { return .int(integer) }
        guard let double = Double(text), double.isFinite else {
            index = start
            throw malformed("number out of range")
        }
        if let integer = Int(exactly: double) { return .int(integer) }
        return .double(double)
    }

    private mutating func skipDigits() {
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
    }

    /// Skips one or more digits; false when there is none.
    private mutating func skipRequiredDigits() -> Bool {
        let start = index
        skipDigits()
        return index > start
    }
}

extension JSONValue {
    /// Parses JSON text with ``JSONReader`` (the fast path the daemon reads requests and
    /// journals with); throws when the text is not one JSON value.
    public init(parsing bytes: UnsafeRawBufferPointer) throws {
        self = try JSONReader.parse(bytes)
    }

    public init(parsing data: Data) throws {
        self = try JSONReader.parse(data)
    }
}
