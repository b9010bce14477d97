import ExtensionSandbox
import Foundation
import Testing

@testable import Clarity
@testable import DeviceActors
@_spi(Host) @testable import SimulatediOS

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
            if seconds > -12_000_000_000 {
                #expect(DeviceCalendar.parseISO(formatter(date)) == date, "after 1582 it reads as Foundation's formatter does: t=\(seconds)")
            }
        }
    }

    /// Every time written reads back as itself, to the first and last second of the four-digit
    /// years: `0001-01-01T00:00:00Z` is not `0000-12-30` (issue 22, Foundation's Julian calendar
    /// before 1582).
    @Test(arguments: [
        "0001-01-01T00:00:00Z", "0000-03-01T00:00:00Z", "1582-10-04T23:59:59Z", "1582-10-15T00:00:00Z", "1600-02-29T12:00:00Z",
        "1969-12-31T23:59:59.999Z", "2026-01-05T09:00:00Z", "9999-12-31T23:59:59Z",
    ])
    func writtenTimesReadBackAsThemselves(text: String) throws {
        #expect(DeviceCalendar.isoString(try #require(DeviceCalendar.parseISO(text))) == text)
    }

    @Test func offsetsAndFractionsAreRead() {
        #expect(DeviceCalendar.parseISO("2026-01-05T10:00:00+01:00") == DeviceCalendar.parseISO("2026-01-05T09:00:00Z"))
        #expect(DeviceCalendar.parseISO("2026-01-05T03:30:00-0530") == DeviceCalendar.parseISO("2026-01-05T09:00:00Z"))
        #expect(DeviceCalendar.parseISO("2026-01-05T09:00:00.5Z")?.timeIntervalSince1970 == 1_767_603_600.5)
        #expect(DeviceCalendar.parseISO("2026-01-05T09:00:00.123456789Z") != nil)
    }

    @Test(arguments: [
        "", "2026-01-05", "2026-01-05T09:00:00", "2026-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-13-01T00:00:00Z",
        "2026-01-05T24:00:00Z", "2026-01-05T09:60:00Z", "2026-01-05T09:00:60Z", "2026-01-05T09:00:00.Z", "2026-01-05T09:00:00.1234567890Z",
        "2026-01-05T09:00:00Z ", "2026-01-05T09:00:00+25:00", "2026-01-05T09:00:00+01", "+2026-01-05T09:00:00Z", "2026-1-05T09:00:00Z",
        "２０２６-01-05T09:00:00Z",
    ])
    func malformedTimesAreNil(text: String) {
        #expect(DeviceCalendar.parseISO(text) == nil)
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

/// The day queries remember the last day they computed; asked in any order, in zones whose days
/// are not 24 hours (DST at midnight, a skipped day), they answer what `Calendar` answers.
@Suite struct DeviceCalendarDayTests {
    @Test(arguments: ["UTC", "America/Sao_Paulo", "Pacific/Apia", "Asia/Kathmandu", "America/St_Johns", "Australia/Lord_Howe"])
    func dayQueriesMatchCalendar(zone: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        let start = try #require(DeviceCalendar.parseISO("2011-10-01T00:00:00Z"))
        let device = DeviceCalendar(start: start, timeZone: timeZone)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var random = SeededRandomForTests(state: 7)
        var instants = (0..<3000).map { VirtualInstant(milliseconds: Int64($0) * 1_800_000) }
        instants += (0..<3000).map { _ in VirtualInstant(milliseconds: Int64(random.next() % 600_000_000_000)) }
        for instant in instants {
            let date = device.date(instant)
            let dayStart = calendar.startOfDay(for: date)
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            #expect(device.startOfDay(instant) == device.instant(dayStart), "\(zone) \(date)")
            #expect(device.dayKey(instant) == String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!), "\(zone) \(date)")
            #expect(
                device.nextMidnight(after: instant) == device.instant(calendar.date(byAdding: .day, value: 1, to: dayStart)!),
                "\(zone) \(date)")
        }
    }
}

/// Interval searches are remembered process-wide by schedule, zone and instant: the same
/// schedule at the same instant in another zone, or from another device start, is its own answer.
@Suite struct ScheduleIntervalMemoTests {
    @Test func answersDependOnZoneAndInstantNotOnWhoAskedFirst() throws {
        let schedule = DeviceActivitySchedule(
            intervalStart: DateComponentsSpec(hour: 10, minute: 0), intervalEnd: DateComponentsSpec(hour: 11, minute: 0), repeats: true)
        let start = try #require(DeviceCalendar.parseISO("2026-03-08T09:00:00Z"))
        let utc = DeviceCalendar(start: start, timeZone: TimeZone(identifier: "UTC")!)
        let newYork = DeviceCalendar(start: start, timeZone: TimeZone(identifier: "America/New_York")!)
        let later = DeviceCalendar(start: start.addingTimeInterval(3600), timeZone: TimeZone(identifier: "UTC")!)
        for _ in 0..<2 {
            let inUTC = try #require(try schedule.interval(at: .epoch, calendar: utc))
            #expect(DeviceCalendar.isoString(utc.date(inUTC.start)) == "2026-03-08T10:00:00Z")
            let inNewYork = try #require(try schedule.interval(at: .epoch, calendar: newYork))
            #expect(DeviceCalendar.isoString(newYork.date(inNewYork.start)) == "2026-03-08T14:00:00Z")
            let fromLater = try #require(try schedule.interval(at: VirtualInstant(milliseconds: 7_200_000), calendar: later))
            #expect(DeviceCalendar.isoString(later.date(fromLater.start)) == "2026-03-09T10:00:00Z")
            #expect(fromLater.start == VirtualInstant(milliseconds: 86_400_000))
        }
    }
}
