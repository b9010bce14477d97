@testable import ControlProtocol
@testable import JSONValues
import Foundation
import Testing

/// The fast writers (``JSONOutput``, the tree encoder behind ``JSONWire``) give exactly the bytes
/// of `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]`, and ``JSONWire/value(_:)``
/// exactly what encoding and decoding back gives; ``LineBuffer`` frames exactly as ``LineFramer``.
@Suite struct JSONWireEquivalenceTests {
    // MARK: - Helpers

    /// The reference bytes: Foundation's `JSONEncoder`, or nil when it throws.
    private func foundation<T: Encodable>(_ value: T) -> [UInt8]? {
        try? Array(JSONWire.encodeWithFoundation(value))
    }

    private func text(_ bytes: [UInt8]?) -> String {
        bytes.map { String(decoding: $0, as: UTF8.self) } ?? "<throws>"
    }

    /// Every fast path agrees with Foundation on `value`, throwing included.
    private func expectSameBytes<T: Encodable>(
        _ value: T, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let expected = foundation(value)
        let fast = try? JSONWire.bytes(value)
        #expect(text(fast) == text(expected), sourceLocation: sourceLocation)
        let viaData = try? Array(JSONWire.encode(value))
        #expect(text(viaData) == text(expected), sourceLocation: sourceLocation)
        var prefixed: [UInt8] = Array("prefix:".utf8)
        let appended = (try? JSONWire.append(value, to: &prefixed)) != nil
        if let expected {
            #expect(appended && prefixed == Array("prefix:".utf8) + expected, sourceLocation: sourceLocation)
        } else {
            #expect(!appended && prefixed == Array("prefix:".utf8), sourceLocation: sourceLocation)
        }
    }

    /// ``JSONWire/value(_:)`` agrees with encoding then decoding through Foundation.
    private func expectSameValue<T: Encodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = try? JSONWire.valueWithFoundation(value)
        let fast = try? JSONWire.value(value)
        #expect(fast == expected, sourceLocation: sourceLocation)
        // And the wire bytes of the two trees are the same.
        if let fast, let expected {
            #expect(text(try? JSONWire.bytes(fast)) == text(foundation(expected)), sourceLocation: sourceLocation)
        }
    }

    // MARK: - JSONValue

    static let doubles: [Double] = [
        0, -0.0, 0.1, 0.2, 0.30000000000000004, 1.5, -0.25, 1e-7, 2.5e-7, 1e-5, 0.0001, 0.000001, 100.5, -3, 300,
        1e15, -1e15, 999_999_999_999_999, 1e15 + 1, 9e15, 9_007_199_254_740_991, 9_007_199_254_740_992,
        9_007_199_254_740_994, 1e16, 1e17, 1.2345678901234568e17, 1e21, 1e22, -1e21, 1.7976931348623157e308,
        -1.7976931348623157e308, .leastNonzeroMagnitude, 2.2250738585072014e-308, 9.223372036854776e18, -9.223372036854776e18,
        1.8446744073709552e19, 3.141592653589793, 2.718281828459045, 1 / 3, 1e300, 123.456e-300, 4.35, 0.5e-10,
        Double(Int32.max), Double(Int64.max), Double(Int64.min), 1e14 + 0.5, -1e14 - 0.5,
    ]

    @Test(arguments: doubles)
    func doublesAreWrittenAsJSONEncoderWritesThem(_ number: Double) {
        expectSameBytes(JSONValue.double(number))
        expectSameBytes(number)
        expectSameBytes(JSONValue.array([.double(number), .double(-number)]))
        expectSameValue(number)
        expectSameValue(["x": number])
    }

    @Test func specialDoublesKeepTheirForms() throws {
        #expect(try JSONWire.encodeString(JSONValue.double(0.1)) == "0.1")
        #expect(try JSONWire.encodeString(JSONValue.double(1e21)) == "1e+21")
        #expect(try JSONWire.encodeString(JSONValue.double(-0.0)) == "-0")
        #expect(try JSONWire.encodeString(JSONValue.double(300.0)) == "300")
        #expect(try JSONWire.encodeString(JSONValue.double(1e16)) == "1e+16")
        #expect(try JSONWire.encodeString(JSONValue.int(Int.min)) == "-9223372036854775808")
    }

    @Test(arguments: [
        0, 1, -1, 9, 10, -9, -10, 99, 100, 12345, -12345, Int(Int32.max), Int(Int32.min), 1 << 53, (1 << 53) + 1,
        Int.max, Int.min, Int.max - 1, Int.min + 1, 1_000_000_000_000_000_000,
    ])
    func integersAreWrittenAsJSONEncoderWritesThem(_ number: Int) {
        expectSameBytes(JSONValue.int(number))
        expectSameBytes(number)
        expectSameValue(number)
    }

    static let strings: [String] = [
        "", "plain", "with space", "quote \" inside", "back\\slash", "/slashes/ stay/", "\u{0}", "a\u{0}b",
        "\u{1}\u{2}\u{3}\u{4}\u{5}\u{6}\u{7}\u{8}\u{9}\u{a}\u{b}\u{c}\u{d}\u{e}\u{f}",
        "\u{10}\u{11}\u{12}\u{13}\u{14}\u{15}\u{16}\u{17}\u{18}\u{19}\u{1a}\u{1b}\u{1c}\u{1d}\u{1e}\u{1f}",
        "\u{7f} DEL", "\u{80}\u{9f} C1", "tab\there", "cr\rlf\n", "\u{2028}\u{2029} separators", "é", "e\u{301}",
        "日本語のテキスト", "😀👩‍👩‍👧‍👦🇫🇷", "\u{FEFF}bom", "\u{FFFD}", "\u{10FFFF}", "mixed \"é\"\\\n😀/\u{1}",
        String(repeating: "long ", count: 500), String(repeating: "\"", count: 64), "</script>",
    ]

    @Test(arguments: strings)
    func stringsAreEscapedAsJSONEncoderEscapesThem(_ string: String) {
        expectSameBytes(JSONValue.string(string))
        expectSameBytes(string)
        expectSameBytes(JSONValue.object([string: .string(string)]))
        expectSameValue([string: string])
    }

    @Test func objectKeysAreSortedByUTF8BytesAtEveryLevel() {
        let keys = [
            "b", "a", "B", "A", "_", "aa", "a10", "a9", "a\u{0}", "é", "e", "f", "～", "😀", "Z", "z", "0", "-", " ",
            "", "ab", "a b", "\u{7f}", "\u{80}", "日", "\u{FFFF}",
        ]
        var members: [String: JSONValue] = [:]
        for (index, key) in keys.enumerated() {
            members[key] = index.isMultiple(of: 2) ? .int(index) : .object(["y": 1, "x": [["b": 1, "a": 2]], "é": nil])
        }
        expectSameBytes(JSONValue.object(members))
        expectSameBytes(JSONValue.object(["b": 1, "a": 2]))
        expectSameBytes(JSONValue.object(["a": 1, "b": 2]))
        expectSameBytes(JSONValue.object(["only": ["nested": ["deeper": ["z": 1, "y": 2, "x": 3]]]]))
        expectSameBytes(JSONValue.array([.object([:]), .array([]), .object(["": .null])]))
    }

    @Test(arguments: [
        JSONValue.null, .bool(true), .bool(false), .string("x"), .array([]), .object([:]),
        ["pong": true, "version": "0.1.0"],
        ["effects": [["actor": "springBoard", "foregroundApp": nil, "kind": "app.state", "locked": true, "seq": 1,
            "shieldShown": false, "t": 0, "time": "2026-01-05T09:00:00Z"]], "t": 0.5, "time": "2026-01-05T09:00:00Z"],
    ])
    func literalsAndContainers(_ value: JSONValue) {
        expectSameBytes(value)
        expectSameValue(value)
    }

    @Test func randomTreesAreWrittenAsJSONEncoderWritesThem() {
        var random = SplitMix(seed: 0x5eed)
        for _ in 0..<1500 {
            let value = random.value(depth: 0)
            expectSameBytes(value)
        }
    }

    /// The request parser (whose strings now skip validation when they are ASCII) reads what
    /// `JSONDecoder` reads. Numbers stay below 2^53: beyond, ``JSONReader`` converts exponent
    /// forms through `Double` while `JSONDecoder` uses their decimal digits (a known difference).
    @Test func randomTreesReadBackAsJSONDecoderReadsThem() throws {
        var random = SplitMix(seed: 42)
        random.smallNumbers = true
        for _ in 0..<500 {
            let value = random.value(depth: 0)
            guard let bytes = foundation(value) else { continue }
            let data = Data(bytes)
            #expect(try JSONReader.parse(data) == JSONDecoder().decode(JSONValue.self, from: data))
        }
    }

    @Test func randomNumbersConvertAsAnEncodeDecodeRoundTrip() {
        var random = SplitMix(seed: 99)
        var doubles: [Double] = []
        var texts: [Float] = []
        for _ in 0..<3000 {
            let number = random.double()
            if number.isFinite { doubles.append(number) }
            let float = Float(bitPattern: UInt32(truncatingIfNeeded: random.next()))
            if float.isFinite { texts.append(float) }
        }
        expectSameValue(doubles)
        expectSameValue(texts)
        expectSameValue(doubles.map { UInt64($0.magnitude.rounded(.down).clamped(to: 0...1.8e19)) })
        expectSameValue(doubles.map { Decimal($0) })
        expectSameBytes(doubles)
        expectSameBytes(texts)
        expectSameBytes(doubles.map { JSONValue.double($0) })
        for number in doubles.prefix(300) {
            expectSameValue(["n": number])
        }
    }

    @Test func nonFiniteNumbersThrowAsBefore() {
        for number in [Double.nan, .infinity, -.infinity] {
            #expect(throws: (any Error).self) { try JSONWire.bytes(JSONValue.double(number)) }
            #expect(throws: (any Error).self) { try JSONWire.encode(["a": [JSONValue.double(number)]] as JSONValue) }
            #expect(throws: (any Error).self) { try JSONWire.value(Wrapper(number: number)) }
            expectSameBytes(JSONValue.array([1, .double(number)]))
            expectSameBytes(RPCResponse(id: .number(1), result: ["bad": .double(number)]))
        }
    }

    @Test(arguments: [1, 10, 100, 400, 499, 500, 501, 510, 511, 512, 513, 600])
    func deepNestingIsWrittenOrRefusedAsJSONEncoderDoes(_ depth: Int) {
        var array: JSONValue = 1
        var object: JSONValue = "leaf"
        for level in 0..<depth {
            array = .array([array])
            object = .object(["k\(level % 3)": object])
        }
        expectSameBytes(array)
        expectSameBytes(object)
        expectSameBytes(RPCResponse(id: .number(1), result: object))
    }

    // MARK: - JSON-RPC

    @Test func responsesAreWrittenAsJSONEncoderWritesThem() {
        let ids: [RPCID] = [.number(1), .number(-7), .number(Int.max), .string(""), .string("a\"b/é"), .null]
        let outcomes: [RPCResponse.Outcome] = [
            .result(.null), .result(["pong": true, "version": "0.1.0"]), .result([1, "two", [3.5]]), .result("s"),
            .error(.parseError("bad")), .error(.methodNotFound("x/y")), .error(.invalidParams(field: "a.b[1]", reason: "é")),
            .error(RPCError(code: 1, message: "", data: .null)), .error(RPCError(code: -32000, message: "m", data: [1, 2])),
            .error(.requestTooLarge(limit: 1 << 20)),
        ]
        for id in ids {
            for outcome in outcomes {
                var response = RPCResponse(id: id, outcome: outcome)
                expectSameBytes(response)
                var bytes: [UInt8] = [0x20]
                #expect((try? JSONWire.append(response, to: &bytes)) != nil)
                #expect(bytes == [0x20] + (foundation(response) ?? []))
                response.jsonrpc = "2.0/\"x\""
                expectSameBytes(response)
            }
        }
        for error in outcomes.compactMap({ if case .error(let error) = $0 { error } else { nil } }) {
            expectSameBytes(error)
            expectSameValue(error)
        }
    }

    // MARK: - Encodable types

    @Test func structsOfEveryPrimitiveTypeMatch() {
        let values = [
            Primitives(
                bool: true, int: -5, int8: .min, int16: .max, int32: .min, int64: .max, uint: .max, uint8: .max,
                uint16: 7, uint32: .max, uint64: .max, int128: .min, uint128: .max, float: 0.1, double: 0.1,
                string: "é\"/", optional: nil, present: 3, nested: Nested(list: [1, 2], map: ["b": 1, "a": 2])),
            Primitives(
                bool: false, int: 0, int8: 0, int16: 0, int32: 0, int64: 0, uint: 0, uint8: 0, uint16: 0, uint32: 0,
                uint64: 0, int128: 0, uint128: 0, float: 3, double: 300, string: "", optional: "x", present: nil,
                nested: Nested(list: [], map: [:])),
            Primitives(
                bool: true, int: .min, int8: -1, int16: -1, int32: -1, int64: -1, uint: 1 << 63, uint8: 1, uint16: 1,
                uint32: 1, uint64: 1 << 63, int128: Int128(Int64.max) * 4, uint128: UInt128(UInt64.max) + 1,
                float: 1e20, double: 1e16, string: "\u{0}", optional: nil, present: 0, nested: Nested(list: [-1], map: ["": 0])),
            Primitives(
                bool: true, int: 1, int8: 1, int16: 1, int32: 1, int64: 1, uint: 1, uint8: 1, uint16: 1, uint32: 1,
                uint64: 1, int128: 1, uint128: 1, float: -0.0, double: -0.0, string: "x", optional: nil, present: nil,
                nested: Nested(list: [], map: [:])),
            Primitives(
                bool: true, int: 1, int8: 1, int16: 1, int32: 1, int64: 1, uint: 1, uint8: 1, uint16: 1, uint32: 1,
                uint64: 1, int128: 1, uint128: 1, float: 1e10, double: 2.5e-7, string: "x", optional: nil, present: nil,
                nested: Nested(list: [], map: [:])),
        ]
        for value in values {
            expectSameBytes(value)
            expectSameValue(value)
        }
    }

    @Test func foundationTypesUseJSONEncoderDefaultStrategies() {
        let value = FoundationTypes(
            date: Date(timeIntervalSinceReferenceDate: 12.5), wholeDate: Date(timeIntervalSinceReferenceDate: 86400),
            data: Data([0, 1, 2, 250, 255]), emptyData: Data(), url: URL(string: "https://example.com/a/b?c=d&e")!,
            fileURL: URL(fileURLWithPath: "/tmp/x y"), decimal: Decimal(string: "3.14")!,
            bigDecimal: Decimal(string: "1e30")!, negativeDecimal: Decimal(string: "-0.5")!, dates: [Date(timeIntervalSinceReferenceDate: -1)],
            optionalData: Data([9]), uuid: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)
        expectSameBytes(value)
        expectSameValue(value)
        expectSameBytes(Date(timeIntervalSinceReferenceDate: 1))
        expectSameBytes(Data([1, 2, 3]))
        expectSameBytes(URL(string: "file:///a")!)
        expectSameBytes(Decimal(42))
        expectSameValue(Decimal(string: "12345678901234567890")!)
    }

    @Test func collectionsAndEnumsMatch() {
        expectSameBytes([1, 2, 3])
        expectSameBytes(["b": [1.5], "a": []])
        expectSameBytes([3: "three", 1: "one", 20: "twenty"])
        expectSameBytes([Key.beta: 1, Key.alpha: 2])
        expectSameBytes([[Int?]]([[1, nil], [], [nil]]))
        expectSameBytes([Float]([0.1, 1, 1e-10, 3.4028235e38]))
        expectSameBytes([Double]([0.1, 1, -0.0]))
        expectSameBytes(Set([1]))
        expectSameBytes([Choice.none, .one(5), .two(a: "x", b: [0.5]), .nested(Nested(list: [1], map: [:]))])
        expectSameValue([Choice.none, .one(5), .two(a: "x", b: [0.5])])
        expectSameValue([UInt64.max, 0, UInt64(Int.max) + 1])
        expectSameValue([Float(1e10), 0.1, 3])
        expectSameValue([Double(1e16), 1e17, 9.223372036854776e18, -9.223372036854776e18, -0.0, 300, 0.5])
    }

    @Test func handWrittenEncodersMatch() {
        for value in [
            Custom(mode: 0), Custom(mode: 1), Custom(mode: 2), Custom(mode: 3), Custom(mode: 4), Custom(mode: 5),
            Custom(mode: 6), Custom(mode: 7), Custom(mode: 8), Custom(mode: 9), Custom(mode: 10),
        ] {
            expectSameBytes(value)
            expectSameValue(value)
            expectSameBytes([value])
            expectSameBytes(["k": value])
        }
        let child = Child()
        expectSameBytes(child)
        expectSameValue(child)
        expectSameBytes(Empty.Holder())
        expectSameValue(Empty.Holder())
        expectSameBytes([Empty()])
    }

    @Test func failuresAreThoseOfJSONEncoder() {
        // A top-level value that encodes nothing.
        expectSameBytes(Empty())
        #expect(throws: (any Error).self) { try JSONWire.value(Empty()) }
        // A value that throws from its own encode(to:).
        #expect(throws: Failing.Failure.self) { try JSONWire.bytes(Failing()) }
        #expect(throws: Failing.Failure.self) { try JSONWire.value(Failing()) }
        #expect(throws: Failing.Failure.self) { try JSONWire.value([Failing()]) }
        // Float non-finite, nested.
        expectSameBytes(["f": Float.nan])
        expectSameBytes(["f": Float.infinity])
    }

    @Test func valueOfAJSONValueIsItself() throws {
        let value: JSONValue = ["a": 1, "b": .double(2.5), "c": .double(300)]
        #expect(try JSONWire.value(value) == value)
    }

    // MARK: - LineBuffer

    @Test func lineBufferFramesAsLineFramer() {
        let streams = [
            "one\ntwo\n\nthree\r\n \t \r\nfour", "{\"a\":1}\n{\"b\":2}\n", "\n\n\n", "", "x", "\r\n\r\n",
            "ab\rcd\n", String(repeating: "y", count: 40) + "\nshort\n", "short\n" + String(repeating: "z", count: 41),
            String(repeating: "w", count: 40) + "\r\n", String(repeating: "v", count: 41) + "\n",
            "é😀\n\u{0}\n", "a\nb\n" + String(repeating: "q", count: 100) + "\nc\n",
        ]
        var random = SplitMix(seed: 7)
        for stream in streams {
            let bytes = Array(stream.utf8)
            for _ in 0..<20 {
                var framer = LineFramer(maxLineBytes: 40)
                var buffer = LineBuffer(maxLineBytes: 40)
                var expected: [String] = []
                var got: [String] = []
                var offset = 0
                while offset < bytes.count {
                    let size = min(bytes.count - offset, 1 + Int(random.next() % 12))
                    let chunk = Array(bytes[offset..<offset + size])
                    offset += size
                    for frame in framer.push(Data(chunk)) {
                        switch frame {
                        case .line(let line): expected.append(String(decoding: line, as: UTF8.self))
                        case .tooLarge: expected.append("<too large>")
                        }
                    }
                    buffer.append(chunk)
                    pull: while true {
                        var line = ""
                        switch buffer.next({ line = String(decoding: $0, as: UTF8.self) }) {
                        case .line: got.append(line)
                        case .tooLarge:
                            got.append("<too large>")
                            break pull
                        case .needMore: break pull
                        }
                    }
                }
                #expect(got == expected, "\(stream.debugDescription)")
                #expect(buffer.overflowed || buffer.pendingByteCount == framer.pendingByteCount)
            }
        }
    }

    @Test func lineBufferCanStopBetweenLinesAndGoOn() {
        var buffer = LineBuffer(maxLineBytes: 100)
        buffer.append(Array("a\nb\nc".utf8))
        var seen: [String] = []
        _ = buffer.next { seen.append(String(decoding: $0, as: UTF8.self)) }
        #expect(seen == ["a"])
        buffer.append(Array("d\ne\n".utf8))
        while case .line = buffer.next({ seen.append(String(decoding: $0, as: UTF8.self)) }) {}
        #expect(seen == ["a", "b", "cd", "e"])
        #expect(buffer.pendingByteCount == 0)
    }
}

// MARK: - Fixtures

/// Deterministic randomness for the generated cases (SplitMix64).
private struct SplitMix {
    var state: UInt64
    /// Only numbers of magnitude below 2^53.
    var smallNumbers = false

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func double() -> Double {
        switch below(6) {
        case 0: return Double(bitPattern: next())  // any bit pattern, maybe not finite
        case 1: return Double(below(2_000_000)) / 1000 - 1000
        case 2: return Double(Int64(bitPattern: next())) / Double(1 << below(64))
        case 3: return Double(below(100_000)) * pow(10, Double(below(40) - 20))
        case 4: return JSONWireEquivalenceTests.doubles[below(JSONWireEquivalenceTests.doubles.count)]
        default: return Double(Int64(bitPattern: next()))
        }
    }

    mutating func string() -> String {
        let pieces = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1f}", "\u{7f}", "é", "日", "😀",
            "\u{2028}", "e\u{301}", "key", "_", "-"]
        return (0..<below(8)).map { _ in pieces[below(pieces.count)] }.joined()
    }

    mutating func value(depth: Int) -> JSONValue {
        switch below(depth > 4 ? 6 : 9) {
        case 0: return .null
        case 1: return .bool(below(2) == 0)
        case 2:
            if smallNumbers { return .int(below(1 << 53) - (1 << 52)) }
            return .int(below(3) == 0 ? Int(bitPattern: UInt(next())) : below(2000) - 1000)
        case 3:
            let number = double()
            guard number.isFinite, !smallNumbers || number.magnitude < 0x1p53 else { return .double(0.5) }
            return .double(number)
        case 4, 5: return .string(string())
        case 6: return .array((0..<below(5)).map { _ in value(depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<below(7) { members[string()] = value(depth: depth + 1) }
            return .object(members)
        }
    }
}

private struct Wrapper: Encodable {
    let number: Double
}

private struct Nested: Codable {
    let list: [Int]
    let map: [String: Int]
}

private struct Primitives: Encodable {
    let bool: Bool
    let int: Int
    let int8: Int8
    let int16: Int16
    let int32: Int32
    let int64: Int64
    let uint: UInt
    let uint8: UInt8
    let uint16: UInt16
    let uint32: UInt32
    let uint64: UInt64
    let int128: Int128
    let uint128: UInt128
    let float: Float
    let double: Double
    let string: String
    let optional: String?
    let present: Int?
    let nested: Nested

    enum CodingKeys: String, CodingKey {
        case bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, int128, uint128, float, double
        case string, optional, present, nested
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(bool, forKey: .bool)
        try container.encode(int, forKey: .int)
        try container.encode(int8, forKey: .int8)
        try container.encode(int16, forKey: .int16)
        try container.encode(int32, forKey: .int32)
        try container.encode(int64, forKey: .int64)
        try container.encode(uint, forKey: .uint)
        try container.encode(uint8, forKey: .uint8)
        try container.encode(uint16, forKey: .uint16)
        try container.encode(uint32, forKey: .uint32)
        try container.encode(uint64, forKey: .uint64)
        try container.encode(int128, forKey: .int128)
        try container.encode(uint128, forKey: .uint128)
        try container.encode(float, forKey: .float)
        try container.encode(double, forKey: .double)
        try container.encode(string, forKey: .string)
        try container.encode(optional, forKey: .optional)  // null when nil
        try container.encodeIfPresent(present, forKey: .present)  // absent when nil
        try container.encode(nested, forKey: .nested)
    }
}

private struct FoundationTypes: Encodable {
    let date: Date
    let wholeDate: Date
    let data: Data
    let emptyData: Data
    let url: URL
    let fileURL: URL
    let decimal: Decimal
    let bigDecimal: Decimal
    let negativeDecimal: Decimal
    let dates: [Date]
    let optionalData: Data?
    let uuid: UUID
}

private enum Key: String, Codable, CodingKeyRepresentable {
    case alpha, beta
}

private enum Choice: Encodable {
    case none
    case one(Int)
    case two(a: String, b: [Double])
    case nested(Nested)
}

/// Hand-written encoders: single values, unkeyed containers with nesting, super encoders.
private struct Custom: Encodable {
    let mode: Int

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        switch mode {
        case 0:
            var single = encoder.singleValueContainer()
            try single.encode("single")
        case 1:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case 2:
            var list = encoder.unkeyedContainer()
            try list.encode(1)
            var inner = list.nestedContainer(keyedBy: Key.self)
            try inner.encode(true, forKey: Key("t"))
            var deeper = list.nestedUnkeyedContainer()
            try deeper.encode("x")
            try deeper.encode(Nested(list: [], map: ["z": 1]))
            try list.encode(2.5)
            let superEncoder = list.superEncoder()
            var superList = superEncoder.unkeyedContainer()
            try superList.encode("super")
            try list.encode(Float(0.1))
        case 3:
            var keyed = encoder.container(keyedBy: Key.self)
            try keyed.encode(1, forKey: Key("b"))
            try keyed.encode(2, forKey: Key("a"))
            try keyed.encode(3, forKey: Key("b"))  // the last value wins
            var again = encoder.container(keyedBy: Key.self)  // the same object again
            try again.encode("c", forKey: Key("c"))
            var nested = keyed.nestedContainer(keyedBy: Key.self, forKey: Key("n"))
            try nested.encode(1, forKey: Key("one"))
            var nestedAgain = keyed.nestedContainer(keyedBy: Key.self, forKey: Key("n"))
            try nestedAgain.encode(2, forKey: Key("two"))
            let superEncoder = keyed.superEncoder()
            var superSingle = superEncoder.singleValueContainer()
            try superSingle.encode(Double(1e16))
            _ = keyed.superEncoder(forKey: Key("empty"))  // encodes nothing: {}
        case 4:
            var keyed = encoder.container(keyedBy: Key.self)
            try keyed.encode([UInt8](), forKey: Key("bytes"))
            try keyed.encode(Data([1]), forKey: Key("data"))
            try keyed.encode([Float.greatestFiniteMagnitude], forKey: Key("floats"))
            try keyed.encodeNil(forKey: Key("nil"))
            try keyed.encode(Empty(), forKey: Key("empty"))
        case 5:
            var single = encoder.singleValueContainer()
            try single.encode(Nested(list: [1], map: ["k": 2]))
        case 6:
            var list = encoder.unkeyedContainer()
            try list.encode(Int8.min)
            try list.encode(Int16.min)
            try list.encode(Int32.min)
            try list.encode(Int64.min)
            try list.encode(UInt.max)
            try list.encode(UInt8.max)
            try list.encode(UInt16.max)
            try list.encode(UInt32.max)
            try list.encode(UInt64.max)
            try list.encode(Int128.min)
            try list.encode(UInt128.max)
            try list.encode(Float(0.1))
            try list.encode(Double(0.1))
            try list.encode(true)
            try list.encode("s/\"")
            try list.encodeNil()
            try list.encode(Optional<Int>.none)
            try list.encode(Optional(Data([7])))
        case 7:
            var single = encoder.singleValueContainer()
            try single.encode(UInt64.max)
        case 8:
            var single = encoder.singleValueContainer()
            try single.encode(Int128.min)
        case 9:
            var single = encoder.singleValueContainer()
            try single.encode(Float(0.1))
        default:
            var single = encoder.singleValueContainer()
            try single.encode(Int8(-3))
        }
    }
}

private class Parent: Encodable {
    let inherited = "base"

    private enum CodingKeys: String, CodingKey { case inherited }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(inherited, forKey: .inherited)
    }
}

private final class Child: Parent {
    let own = 0.5

    private enum CodingKeys: String, CodingKey { case own }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(own, forKey: .own)
        try super.encode(to: container.superEncoder())
    }
}

/// Encodes nothing at all.
private struct Empty: Encodable {
    func encode(to encoder: any Encoder) throws {}

    struct Holder: Encodable {
        let empty = Empty()
        let list = [Empty(), Empty()]
    }
}

private struct Failing: Encodable {
    struct Failure: Error {}

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(1)
        throw Failure()
    }
}

extension Comparable {
    fileprivate func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}
