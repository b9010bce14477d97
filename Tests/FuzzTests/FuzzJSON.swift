import ControlProtocol

/// A JSON text as the fuzzer writes it: unlike ``JSONValue`` it keeps the order of members, can
/// repeat a key, and can hold numbers, string bodies and whole values written exactly as given
/// (`1e19`, `9223372036854775808`, `"\ud800"`, bytes that are not JSON at all).
indirect enum FuzzValue: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    /// A number written as is: `1e19`, `-0.0`, `9223372036854775808`, `1e400`.
    case number(String)
    case string(String)
    /// The bytes between the quotes, as is: escapes such as `\ud800`, even invalid UTF-8.
    case rawString([UInt8])
    case array([FuzzValue])
    case object([(String, FuzzValue)])
    /// Bytes written in place of a value.
    case raw([UInt8])

    static func object(_ members: KeyValuePairs<String, FuzzValue>) -> FuzzValue {
        .object(members.map { ($0.key, $0.value) })
    }

    /// The member `key` of an object (the first, when repeated).
    subscript(key: String) -> FuzzValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    func isString(_ text: String) -> Bool {
        if case .string(text) = self { return true }
        return false
    }

    var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128)
        write(to: &out)
        return out
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    func write(to out: inout [UInt8]) {
        switch self {
        case .null: out += Array("null".utf8)
        case .bool(let value): out += Array((value ? "true" : "false").utf8)
        case .int(let value): out += Array(String(value).utf8)
        case .number(let literal): out += Array(literal.utf8)
        case .string(let value): Self.writeString(value, to: &out)
        case .rawString(let body):
            out.append(UInt8(ascii: "\""))
            out += body
            out.append(UInt8(ascii: "\""))
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .raw(let bytes): out += bytes
        }
    }

    static func writeString(_ value: String, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case UInt8(ascii: "\t"): out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20:
                out += Array("\\u00".utf8)
                out += [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The value the daemon stores for this one, when the fuzzer can tell (no `null`, no repeated
    /// key, nothing written raw): what a tracked `store.set` must leave behind.
    var storedValue: JSONValue? {
        switch self {
        case .null, .rawString, .raw: return nil
        case .bool(let value): return .bool(value)
        case .int(let value): return .int(value)
        case .number(let literal):
            guard let value = Double(literal), value.isFinite else { return nil }
            return .double(value)
        case .string(let value): return .string(value)
        case .array(let elements):
            var values: [JSONValue] = []
            for element in elements {
                guard let value = element.storedValue else { return nil }
                values.append(value)
            }
            return .array(values)
        case .object(let members):
            var values: [String: JSONValue] = [:]
            for (key, member) in members {
                guard values[key] == nil, let value = member.storedValue else { return nil }
                values[key] = value
            }
            return .object(values)
        }
    }
}

extension JSONValue {
    /// Whether `self`, read back from the daemon, is the stored value `expected`: numbers compare
    /// by value (`3` is `3.0`, `1e19` is `10000000000000000000`), and the read-only `$json` view
    /// the daemon adds next to `$data` is ignored.
    func isStoredValue(_ expected: JSONValue) -> Bool {
        switch (expected, self) {
        case (.int(let a), .int(let b)): return a == b
        case (.int, .double), (.double, .int), (.double, .double):
            return expected.doubleValue == doubleValue
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $1.isStoredValue($0) }
        case (.object(let a), .object(var b)):
            if a["$data"] != nil, a["$json"] == nil { b["$json"] = nil }
            return a.count == b.count && a.allSatisfy { key, value in b[key].map { $0.isStoredValue(value) } ?? false }
        default: return expected == self
        }
    }
}

/// A strict JSON parser for what the daemon sends back, without a nesting limit (the daemon's
/// answers may be nested as deep as what it was given, plus a few levels): invalid JSON, invalid
/// UTF-8 or trailing bytes are errors.
struct ResponseParser {
    struct Invalid: Error, CustomStringConvertible {
        let offset: Int
        let reason: String
        var description: String { "invalid JSON at byte \(offset): \(reason)" }
    }

    private let bytes: [UInt8]
    private var index = 0

    static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        var parser = ResponseParser(bytes: bytes)
        parser.skipSpace()
        let value = try parser.value()
        parser.skipSpace()
        guard parser.index == bytes.count else { throw Invalid(offset: parser.index, reason: "trailing bytes") }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private func fail(_ reason: String) -> Invalid { Invalid(offset: index, reason: reason) }

    private mutating func expect(_ literal: String) throws {
        let expected = Array(literal.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw fail("expected \(literal)")
        }
        index += expected.count
    }

    private mutating func value() throws -> JSONValue {
        guard index < bytes.count else { throw fail("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            var members: [String: JSONValue] = [:]
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a key") }
                let key = try string()
                skipSpace()
                try expect(":")
                skipSpace()
                let member = try value()
                if members[key] == nil { members[key] = member }
                skipSpace()
                guard index < bytes.count else { throw fail("unexpected end") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                try expect("}")
                return .object(members)
            }
        case UInt8(ascii: "["):
            index += 1
            var elements: [JSONValue] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                skipSpace()
                elements.append(try value())
                skipSpace()
                guard index < bytes.count else { throw fail("unexpected end") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                try expect("]")
                return .array(elements)
            }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try expect("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expect("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expect("null")
            return .null
        default: return try number()
        }
    }

    private mutating func number() throws -> JSONValue {
        let start = index
        func digits() -> Int {
            let first = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            return index - first
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        guard digits() > 0 else { throw fail("expected a value") }
        if bytes[integerStart] == UInt8(ascii: "0"), index - integerStart > 1 { throw fail("leading zero") }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            isInteger = false
            guard digits() > 0 else { throw fail("expected a digit") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            isInteger = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw fail("expected a digit") }
        }
        let literal = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let value = Int(literal) { return .int(value) }
        guard let value = Double(literal), value.isFinite else { throw fail("number out of range: \(literal)") }
        return .double(value)
    }

    private mutating func string() throws -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() throws {
            guard !run.isEmpty else { return }
            guard let text = String(validating: run, as: UTF8.self) else { throw fail("invalid UTF-8") }
            scalars.append(contentsOf: text.unicodeScalars)
            run.removeAll(keepingCapacity: true)
        }
        func hex4() throws -> UInt32 {
            guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
            else { throw fail("bad \\u escape") }
            index += 4
            return value
        }
        while true {
            guard index < bytes.count else { throw fail("unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                try flush()
                return String(scalars)
            }
            if byte < 0x20 { throw fail("control character in a string") }
            if byte != UInt8(ascii: "\\") {
                run.append(byte)
                index += 1
                continue
            }
            try flush()
            index += 1
            guard index < bytes.count else { throw fail("unterminated escape") }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{8}")
            case UInt8(ascii: "f"): scalars.append("\u{C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code) {
                    guard index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                    else { throw fail("lone surrogate") }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw fail("lone surrogate") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw fail("lone surrogate") }
                scalars.append(scalar)
            default: throw fail("bad escape")
            }
        }
    }
}

/// At most `limit` bytes of `bytes` as text, for messages: long requests are cut, with their size.
func excerpt(_ bytes: [UInt8], limit: Int = 400) -> String {
    var shown = String(decoding: bytes.prefix(limit), as: UTF8.self)
    for (character, escape) in [("\n", "\\n"), ("\r", "\\r"), ("\u{85}", "\\u0085"), ("\u{2028}", "\\u2028"), ("\u{2029}", "\\u2029")] {
        shown = shown.replacingOccurrences(of: character, with: escape)
    }
    return bytes.count > limit ? "\(shown)… (\(bytes.count) bytes)" : shown
}

func excerpt(_ text: String, limit: Int = 400) -> String { excerpt(Array(text.utf8), limit: limit) }
