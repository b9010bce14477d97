import Foundation
import Testing

@_spi(Host) import SimulatediOS
@testable import DeviceActors

/// How a story prints values (issue 42 item 1, gap 3): data that holds JSON or a property list
/// as what it holds, other data as its size, and anything long cut with `…`.
@Suite struct ValueTextTests {
    @Test func dataHoldingAPropertyListPrintsAsJSON() throws {
        let plist = try PropertyListSerialization.data(
            fromPropertyList: ["streak": 3, "name": "Mom"], format: .binary, options: 0)
        #expect(ValueText.short(.data(plist)) == #"{"name":"Mom","streak":3}"#)
    }

    @Test func dataHoldingJSONPrintsWithSortedKeys() {
        #expect(ValueText.short(.data(Data(#"{"b":1,"a":[true]}"#.utf8))) == #"{"a":[true],"b":1}"#)
    }

    @Test func otherDataPrintsAsItsSize() {
        #expect(ValueText.short(.data(Data([0xff, 0x00, 0xfe]))) == "<3 bytes>")
    }

    @Test func aLongValueIsCutAtTheLimit() {
        let text = ValueText.short(.string(String(repeating: "x", count: 200)))
        #expect(text.count == ValueText.limit + 1 && text.hasSuffix("…"))
    }
}
