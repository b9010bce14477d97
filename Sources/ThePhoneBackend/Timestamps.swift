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

    /// `YYYY-MM-DDTHH:MM:SS.sssZ` in UTC.
    public static func iso(_ milliseconds: Int64) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date(milliseconds))
        let millis = Int(((milliseconds % 1000) + 1000) % 1000)
        return dayString(parts) + "T" + zeroPadded(parts.hour ?? 0, 2) + ":" + zeroPadded(parts.minute ?? 0, 2) + ":"
            + zeroPadded(parts.second ?? 0, 2) + "." + zeroPadded(millis, 3) + "Z"
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
