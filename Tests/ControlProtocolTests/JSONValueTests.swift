import ControlProtocol
import Foundation
import Testing

/// `JSONValue` survives the wire unchanged, and `JSONWire` writes it the one way.
@Suite struct JSONValueTests {
    private func roundTrip(_ value: JSONValue) throws -> JSONValue {
        try JSONWire.decode(JSONValue.self, from: JSONWire.encode(value))
    }

    @Test(arguments: [
        JSONValue.null, .bool(true), .bool(false), .int(0), .int(5), .int(-42), .int(Int.max), .int(Int.min),
        .double(1.5), .double(-0.25), .double(1e-7), .string(""), .string("héllo \"quoted\" \\ / \n\t 😀"),
        .array([]), .array([1, "two", nil, [3.5]]), .object([:]),
        .object(["nested": ["deeper": [1, 2, ["x": true]]], "empty": [:]]),
    ])
    func roundTripsUnchanged(_ value: JSONValue) throws {
        #expect(try roundTrip(value) == value)
    }

    @Test func integersStayIntegersAndFractionsStayDoubles() throws {
        #expect(try JSONWire.encodeString(JSONValue.int(5)) == "5")
        #expect(try JSONWire.decode(JSONValue.self, from: Data("5".utf8)) == .int(5))
        #expect(try JSONWire.decode(JSONValue.self, from: Data("2.5".utf8)) == .double(2.5))
    }

    @Test func objectsEncodeWithSortedKeysAndUnescapedSlashes() throws {
        let value: JSONValue = ["zebra": 1, "apple": ["c": 3, "b": 2], "path": "/tmp/x"]
        #expect(try JSONWire.encodeString(value) == #"{"apple":{"b":2,"c":3},"path":"/tmp/x","zebra":1}"#)
    }

    @Test func accessorsReadTheMatchingCaseOnly() {
        let value: JSONValue = ["name": "default", "count": 3, "ratio": 0.5, "on": true, "list": [1], "obj": [:]]
        #expect(value["name"]?.stringValue == "default")
        #expect(value["count"]?.intValue == 3)
        #expect(value["count"]?.doubleValue == 3.0)
        #expect(value["ratio"]?.doubleValue == 0.5)
        #expect(value["ratio"]?.intValue == nil)
        #expect(JSONValue.double(4.0).intValue == 4)
        #expect(value["on"]?.boolValue == true)
        #expect(value["list"]?.arrayValue == [1])
        #expect(value["obj"]?.objectValue == [:])
        #expect(value["missing"] == nil)
        #expect(JSONValue.string("x")["key"] == nil)
        #expect(JSONValue.int(1).stringValue == nil)
    }

    @Test func typeNamesAreJSONs() {
        let names = [JSONValue.null, true, 1, 1.5, "s", [], [:]].map(\.typeName)
        #expect(names == ["null", "boolean", "number", "number", "string", "array", "object"])
    }

    @Test func codableValuesConvertToAndFromTrees() throws {
        struct Budget: Codable, Equatable {
            var monitor: Int
            var label: String?
        }
        let tree = try JSONWire.value(Budget(monitor: 6_291_456, label: "m"))
        #expect(tree == ["monitor": 6_291_456, "label": "m"])
        #expect(try JSONWire.decode(Budget.self, from: tree) == Budget(monitor: 6_291_456, label: "m"))
        #expect(try JSONWire.value(JSONValue.int(1)) == .int(1))
    }
}
