import Foundation
import Testing

@testable import DeviceActors

@Suite struct DeviceCalendarTests {
    private func formatter(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        if date.timeIntervalSince1970.rounded() != date.timeIntervalSince1970 {
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        }
        return formatter.string(from: date)
    }

    @Test func isoStringsMatchFoundationsFormatter() {
        var random = SeededRandomForTests(state: 42)
        var instants: [Double] = [0, -1, 86_399, 86_400, 951_782_400, 1_767_603_600, 1_767_603_600.5, 4_102_444_800, -2_208_988_800]
        for _ in 0..<2000 {
            instants.append(Double(Int64(random.next() % 8_000_000_000) - 2_000_000_000) + Double(random.next() % 1000) / 1000)
        }
        for seconds in instants {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(DeviceCalendar.isoString(date) == formatter(date), "t=\(seconds)")
        }
    }
}

/// A local generator so this test needs nothing from the runtime.
private struct SeededRandomForTests {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 11
    }
}
