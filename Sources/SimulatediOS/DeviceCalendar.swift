import ExtensionSandbox
import Foundation

/// Maps virtual time to calendar dates for one device: the device's epoch (`start`) and time
/// zone. `t` = 0 is `start`. Uses Foundation's Calendar on computed dates only, never the wall
/// clock.
public struct DeviceCalendar: Sendable {
    public let start: Date
    public let timeZone: TimeZone
    /// The zone's name as the user gave it (Foundation on Linux reports `UTC` as `GMT`).
    public let timeZoneName: String
    public let calendar: Calendar

    public init(start: Date, timeZone: TimeZone, name: String? = nil) {
        self.start = start
        self.timeZone = timeZone
        self.timeZoneName = name ?? timeZone.identifier
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// The date of `instant`, on a whole millisecond: `start + t` in floating point can land a
    /// hair before the millisecond it stands for (11:00:00 as 10:59:59.99999988 when `start` has
    /// a fraction), and a schedule's interval end would then fall inside its own interval.
    public func date(_ instant: VirtualInstant) -> Date {
        let milliseconds = ((start.timeIntervalSinceReferenceDate + instant.seconds) * 1000).rounded()
        return Date(timeIntervalSinceReferenceDate: milliseconds / 1000)
    }

    public func instant(_ date: Date) -> VirtualInstant {
        VirtualInstant(seconds: date.timeIntervalSince(start))
    }

    /// ISO-8601 UTC, as results report times (`2026-01-05T09:00:00Z`).
    public func isoString(_ instant: VirtualInstant) -> String {
        Self.isoString(date(instant))
    }

    /// ISO-8601 UTC of `date`, `.SSS` milliseconds only when not a whole second. Computed by
    /// arithmetic (days → civil date, Hinnant's algorithm) and written digit by digit: a
    /// formatter, or `String(format:)`, per effect costs more than the rest of a request.
    public static func isoString(_ date: Date) -> String {
        let totalMilliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        var seconds = totalMilliseconds.floorDivided(by: 1000)
        let milliseconds = totalMilliseconds - seconds * 1000
        let days = seconds.floorDivided(by: 86_400)
        seconds -= days * 86_400
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        var text: [UInt8] = []
        text.reserveCapacity(24)
        if year < 0 { text.append(UInt8(ascii: "-")) }
        appendDigits(abs(year), width: 4, to: &text)
        for (separator, value) in [("-", month), ("-", day), ("T", seconds / 3600), (":", seconds / 60 % 60), (":", seconds % 60)] {
            text.append(UInt8(ascii: separator.unicodeScalars.first!))
            appendDigits(value, width: 2, to: &text)
        }
        if milliseconds != 0 {
            text.append(UInt8(ascii: "."))
            appendDigits(milliseconds, width: 3, to: &text)
        }
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends the decimal digits of `value` (≥ 0), zero-padded to at least `width`.
    private static func appendDigits(_ value: Int64, width: Int, to text: inout [UInt8]) {
        var digits: [UInt8] = []
        var rest = value
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        text.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(0, width - digits.count)))
        text.append(contentsOf: digits.reversed())
    }

    /// Year, month, day of the proleptic Gregorian calendar for days since 1970-01-01.
    @_spi(Host) public static func civilDate(daysSinceEpoch: Int64) -> (Int64, Int64, Int64) {
        let z = daysSinceEpoch + 719_468
        let era = z.floorDivided(by: 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Reads ISO-8601 as the protocol takes it: `YYYY-MM-DDTHH:MM:SS`, an optional fraction of 1
    /// to 9 digits, then `Z` or an offset (`+01:00`, `-0530`). The calendar is the proleptic
    /// Gregorian one ``isoString(_:)`` writes, so every time written reads back as itself:
    /// Foundation's `ISO8601DateFormatter` switches to the Julian calendar before 1582, which made
    /// `0001-01-01T00:00:00Z` come back as `0000-12-30T00:00:00Z` (issue 22). Day 31 of a 30-day
    /// month, hour 24 or a leap second is nil.
    public static func parseISO(_ string: String) -> Date? {
        let text = Array(string.utf8)
        func number(_ range: Range<Int>) -> Int64? {
            guard range.upperBound <= text.count else { return nil }
            var value: Int64 = 0
            for index in range {
                let digit = text[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int64(digit)
            }
            return value
        }
        func isDigit(_ index: Int) -> Bool { index < text.count && text[index] &- UInt8(ascii: "0") < 10 }
        guard text.count >= 20, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"), text[10] | 0x20 == UInt8(ascii: "t"),
            text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...daysIn(month: month, of: year)).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        var fraction = 0.0
        if text[index] == UInt8(ascii: ".") {
            let start = index + 1
            index = start
            while isDigit(index) { index += 1 }
            guard (1...9).contains(index - start), let digits = number(start..<index) else { return nil }
            fraction = Double(digits) / Double((0..<(index - start)).reduce(Int64(1)) { value, _ in value * 10 })
        }
        var offset: Int64 = 0
        guard index < text.count else { return nil }
        switch text[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign: Int64 = text[index] == UInt8(ascii: "-") ? -1 : 1
            let colon = index + 3 < text.count && text[index + 3] == UInt8(ascii: ":")
            let minutesAt = index + (colon ? 4 : 3)
            guard let hours = number(index + 1..<index + 3), let minutes = number(minutesAt..<minutesAt + 2), hours < 24, minutes < 60
            else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
            index = minutesAt + 2
        default:
            return nil
        }
        guard index == text.count else { return nil }
        let seconds = daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date: ``civilDate(daysSinceEpoch:)``'s inverse.
    @_spi(Host) public static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear.floorDivided(by: 400)
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// How many days `month` has in `year` (proleptic Gregorian).
    private static func daysIn(month: Int64, of year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The start of the local day holding `instant`.
    public func startOfDay(_ instant: VirtualInstant) -> VirtualInstant {
        self.instant(localDay(of: date(instant)).start)
    }

    /// A stable name of the local day holding `instant` (`2026-01-05`).
    public func dayKey(_ instant: VirtualInstant) -> String {
        localDay(of: date(instant)).key
    }

    /// One day after the start of the local day holding `instant` (by `Calendar`'s day
    /// arithmetic: the next midnight, or the hour after it where a zone skips midnight).
    public func nextMidnight(after instant: VirtualInstant) -> VirtualInstant {
        self.instant(localDay(of: date(instant)).startPlusOneDay)
    }

    /// The local day holding `date`, from the last one asked for when it still holds it, else
    /// from the days any device of the process computed in this zone: the platform asks for
    /// today's day many times a step, every schedule of an exploration builds a fresh device on
    /// the same days, and `Calendar` takes microseconds each. A day depends on the zone alone
    /// (the calendar is always Gregorian), so sharing it changes no trace.
    private func localDay(of date: Date) -> LocalDay {
        if let known = lastDay.value, known.contains(date) { return known }
        let day = KnownDays.shared.day(in: timeZone, holding: date) {
            let interval = calendar.dateInterval(of: .day, for: date)
                ?? DateInterval(start: calendar.startOfDay(for: date), duration: 86_400)
            let parts = calendar.dateComponents([.year, .month, .day], from: interval.start)
            return LocalDay(
                start: interval.start, end: interval.end,
                key: String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0),
                startPlusOneDay: calendar.date(byAdding: .day, value: 1, to: interval.start) ?? interval.end)
        }
        lastDay.value = day
        return day
    }

    private let lastDay = LastDay()
}

/// One local day: `[start, end)`, its key and `start` plus one day by `Calendar`.
private struct LocalDay: Sendable {
    let start: Date
    let end: Date
    let key: String
    let startPlusOneDay: Date

    func contains(_ date: Date) -> Bool { start <= date && date < end }
}

/// The day a ``DeviceCalendar`` computed last, shared by its copies.
// unchecked: lock-protected: every var is touched only under `lock` (NSLock, which TSan follows; Mutex it cannot see)
private final class LastDay: @unchecked Sendable {
    private let lock = NSLock()
    private var day: LocalDay?

    var value: LocalDay? {
        get { lock.withLock { day } }
        set { lock.withLock { day = newValue } }
    }
}

/// The local days computed in each time zone, shared by every device of the process. Bounded:
/// a zone keeps its last `capacityPerZone` days, and past `capacityOfZones` zones all are forgotten.
// unchecked: lock-protected: every var is touched only under `lock` (NSLock, which TSan follows; Mutex it cannot see)
private final class KnownDays: @unchecked Sendable {
    static let shared = KnownDays()
    private let capacityPerZone = 64
    private let capacityOfZones = 256
    private let lock = NSLock()
    private var days: [TimeZone: [LocalDay]] = [:]

    /// The known day of `zone` holding `date`, or the one `compute` makes (then remembered).
    func day(in zone: TimeZone, holding date: Date, compute: () -> LocalDay) -> LocalDay {
        if let known = lock.withLock({ days[zone]?.last { $0.contains(date) } }) { return known }
        let day = compute()
        lock.withLock {
            if days[zone] == nil, days.count >= capacityOfZones { days.removeAll(keepingCapacity: true) }
            days[zone, default: []].append(day)
            if days[zone]!.count > capacityPerZone { days[zone]!.removeFirst() }
        }
        return day
    }
}

extension Int64 {
    /// Division rounding toward negative infinity.
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
