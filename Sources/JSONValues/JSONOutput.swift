import Foundation

/// Writes JSON bytes exactly as `JSONEncoder` does with `[.sortedKeys, .withoutEscapingSlashes]`
/// (swift-foundation's `JSONWriter`), without its boxing and `Data` round trips: the daemon's
/// reply path.
///
/// The rules it reproduces, byte for byte:
/// - object keys sorted by their UTF-8 bytes; no whitespace anywhere;
/// - strings escape `"` and `\` and the C0 controls (`\b \f \n \r \t`, others as `\u00xx`, lowercase
///   hex); `/`, DEL and every non-ASCII character are written as they are;
/// - an integer in decimal; a `Double` as its `description` without a trailing `.0`
///   (`300`, `0.1`, `1e+21`, `-0`).
///
/// A value it cannot write the same way — a non-finite number, or nesting deeper than
/// ``maxDepth`` — makes it throw ``Unsupported``; ``JSONWire`` then falls back to `JSONEncoder`,
/// which gives the same bytes or the same error as before.
public struct JSONOutput: Sendable {
    /// The bytes written so far.
    public var bytes: [UInt8]

    /// Containers nested deeper than this are left to `JSONEncoder` (whose limit is 512).
    static let maxDepth = 500

    /// A value this writer leaves to `JSONEncoder`.
    public struct Unsupported: Error {}

    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends to `bytes` (which keep what they held).
    public init(appendingTo bytes: [UInt8]) {
        self.bytes = bytes
    }

    // MARK: - Values

    public mutating func write(_ value: JSONValue) throws(Unsupported) {
        try write(value, depth: 0)
    }

    package mutating func write(_ value: JSONValue, depth: Int) throws(Unsupported) {
        switch value {
        case .null: append("null")
        case .bool(let flag): flag ? append("true") : append("false")
        case .int(let number): write(number)
        case .double(let number): try write(number)
        case .string(let string): write(string)
        case .array(let elements):
            guard depth < Self.maxDepth else { throw Unsupported() }
            bytes.append(UInt8(ascii: "["))
            var first = true
            for element in elements {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                try write(element, depth: depth + 1)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            guard depth < Self.maxDepth else { throw Unsupported() }
            bytes.append(UInt8(ascii: "{"))
            if members.count == 1, let (key, member) = members.first {
                writeKey(key)
                try write(member, depth: depth + 1)
            } else if members.count == 2 {
                var pair = members.makeIterator()
                var first = pair.next()!
                var second = pair.next()!
                if Self.precedes(second.key, first.key) { swap(&first, &second) }
                writeKey(first.key)
                try write(first.value, depth: depth + 1)
                bytes.append(UInt8(ascii: ","))
                writeKey(second.key)
                try write(second.value, depth: depth + 1)
            } else if !members.isEmpty {
                var first = true
                for (key, member) in members.sorted(by: { Self.precedes($0.key, $1.key) }) {
                    if !first { bytes.append(UInt8(ascii: ",")) }
                    first = false
                    writeKey(key)
                    try write(member, depth: depth + 1)
                }
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// `"key":`
    @inline(__always)
    package mutating func writeKey(_ key: String) {
        write(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Appends ASCII text that needs no escaping (punctuation, literals, keys known in advance).
    @inline(__always)
    public mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Whether `a` sorts before `b` by UTF-8 bytes, as `JSONEncoder`'s `.sortedKeys` orders keys.
    @inline(__always)
    static func precedes(_ a: String, _ b: String) -> Bool {
        var a = a
        var b = b
        return a.withUTF8 { left in
            b.withUTF8 { right in
                let common = min(left.count, right.count)
                if common > 0 {
                    let order = memcmp(left.baseAddress!, right.baseAddress!, common)
                    if order != 0 { return order < 0 }
                }
                return left.count < right.count
            }
        }
    }

    // MARK: - Numbers

    public mutating func write(_ number: Int) {
        if number >= 0 && number < 10 {
            bytes.append(UInt8(truncatingIfNeeded: number) &+ UInt8(ascii: "0"))
            return
        }
        var magnitude = number.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var index = 20
            repeat {
                index -= 1
                digits[index] = UInt8(truncatingIfNeeded: magnitude % 10) &+ UInt8(ascii: "0")
                magnitude /= 10
            } while magnitude > 0
            if number < 0 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[index..<20]))
        }
    }

    /// `description` without a trailing `.0`; integral values below 10^15 are written as integers
    /// (their `description` is the same digits and `.0`).
    public mutating func write(_ number: Double) throws(Unsupported) {
        guard number.isFinite else { throw Unsupported() }
        if number.magnitude < 1e15, number.rounded(.towardZero) == number,
            !(number == 0 && number.sign == .minus)
        {
            write(Int(number))
            return
        }
        writeNumberText(Self.text(of: number))
    }

    /// The text `JSONEncoder` gives a finite floating-point number.
    static func text<F: BinaryFloatingPoint & CustomStringConvertible>(of number: F) -> String {
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// Appends number text as it is.
    mutating func writeNumberText(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    // MARK: - Strings

    /// A quoted, escaped string.
    public mutating func write(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return }
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = base[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if index > runStart {
                    bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: index - runStart))
                }
                runStart = index + 1
                appendEscape(byte)
            }
            if utf8.count > runStart {
                bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: utf8.count - runStart))
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hex: StaticString = "0123456789abcdef"
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            bytes.append(hex.utf8Start[Int(byte >> 4)])
            bytes.append(hex.utf8Start[Int(byte & 0x0F)])
        }
    }
}
