@testable import ControlProtocol
@testable import JSONValues
import Foundation
import Testing

/// The request parser agrees with `JSONDecoder` on every valid input and refuses invalid ones.
@Suite struct JSONReaderTests {
    private func read(_ text: String) throws -> JSONValue {
        try JSONReader.parse(Data(text.utf8))
    }

    @Test(arguments: [
        "null", "true", "false", "0", "-0", "5", "-42", "5.0", "1e3", "1E+2", "2.5", "-0.125", "1e-7",
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "123456789012345678901234567890",
        #""""#, #""plain""#, #""esc \" \\ \/ \b \f \n \r \t""#, #""\u00e9\u0041\ud83d\ude00""#, #""é 😀 ünï""#,
        "[]", "[1,2.5,true,null,\"x\"]", "{}", #"{"b":1,"a":{"c":[{}]}}"#, " \t\r\n{ \"k\" : [ 1 , 2 ] }\n ",
        #"{"dup":1,"dup":2}"#,
    ])
    func agreesWithJSONDecoder(_ text: String) throws {
        let expected = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(try read(text) == expected)
    }

    @Test func keepsIntegersApartFromDoubles() throws {
        #expect(try read("7") == .int(7))
        #expect(try read("7.0") == .int(7))
        #expect(try read("7.5") == .double(7.5))
        #expect(try read("9223372036854775808") == .double(9_223_372_036_854_775_808))
    }

    @Test(arguments: [
        "", " ", "{", "}", "[1,]", "[1 2]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "{1:2}", "01", "1.", ".5", "-", "+1",
        "1e", "1e+", "0x10", "tru", "nul", "True", "'s'", "\"open", "\"bad \\q escape\"", "\"\\u12\"",
        "\"\\ud83d\"", "\"\\ude00\"", "\"\\ud83d\\u0041\"", "\"tab\there\"", "1 2", "{} []", "1e400", "NaN",
    ])
    func refusesMalformedText(_ text: String) {
        #expect(throws: JSONReader.Malformed.self) { try read(text) }
    }

    @Test func refusesInvalidUTF8InsideStrings() {
        let bytes: [UInt8] = [0x22, 0xC3, 0x28, 0x22]
        #expect(throws: JSONReader.Malformed.self) { try JSONReader.parse(Data(bytes)) }
    }

    @Test func limitsNesting() throws {
        let depth = JSONReader.maxDepth
        let deepest = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(throws: Never.self) { try read(deepest) }
        let tooDeep = String(repeating: "[", count: 100_000)
        #expect(throws: JSONReader.Malformed.self) { try read(tooDeep) }
        let tooDeepObjects = String(repeating: "{\"a\":", count: JSONReader.maxDepth + 1) + "1"
            + String(repeating: "}", count: JSONReader.maxDepth + 1)
        #expect(throws: JSONReader.Malformed.self) { try read(tooDeepObjects) }
    }
}
