import Foundation

/// Milliseconds since 1970 (the seed's unit) to and from Foundation, and JavaScript's
/// `Date.prototype.toISOString` (the seed's `exportedAt`), without a formatter.
public enum Timestamps {
    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// `YYYY-MM-DDTHH:MM:SS.sssZ` in UTC, in the proleptic Gregorian calendar, as the device
    /// writes its times (and JavaScript's `toISOString`): Foundation's Gregorian calendar is
    /// Julian before 1582, which put 1000-01-01 at 0999-12-27 here while the device said
    /// 1000-01-01 (issue 38). A year before 1 is `0000`, `-0001`…, as the device writes it.
    public static func iso(_ milliseconds: Int64) -> String {
        let millis = ((milliseconds % 1000) + 1000) % 1000
        let seconds = (milliseconds - millis) / 1000
        let secondOfDay = ((seconds % 86_400) + 86_400) % 86_400
        let (year, month, day) = civilDate(daysSince1970: (seconds - secondOfDay) / 86_400)
        let dayText = (year < 0 ? "-" : "") + zeroPadded(String(year.magnitude), 4) + "-" + zeroPadded(Int(month), 2) + "-"
            + zeroPadded(Int(day), 2)
        return dayText + "T" + zeroPadded(Int(secondOfDay / 3600), 2) + ":" + zeroPadded(Int(secondOfDay / 60 % 60), 2) + ":"
            + zeroPadded(Int(secondOfDay % 60), 2) + "." + zeroPadded(Int(millis), 3) + "Z"
    }

    /// Year, month and day of the proleptic Gregorian calendar for a count of days since
    /// 1970-01-01 (Howard Hinnant's `civil_from_days`: 400-year eras of 146 097 days, years
    /// counted from March so that the leap day ends them).
    static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let marchMonth = (5 * dayOfYear + 2) / 153
        let month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, dayOfYear - (153 * marchMonth + 2) / 5 + 1)
    }

    /// `YYYY-MM-DD` of date components.
    static func dayString(_ parts: DateComponents) -> String {
        zeroPadded(parts.year ?? 0, 4) + "-" + zeroPadded(parts.month ?? 0, 2) + "-" + zeroPadded(parts.day ?? 0, 2)
    }

    /// `digits` with zeros in front up to `width` characters.
    static func zeroPadded(_ digits: String, _ width: Int) -> String {
        String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    static func zeroPadded(_ value: Int, _ width: Int) -> String {
        zeroPadded(String(value), width)
    }
}
