import Foundation

/// The seed's `getWeekStart` (`utils/time.ts`: "Week starts Monday 00:00 in user's timezone"), with
/// Foundation's calendar instead of the seed's JavaScript date arithmetic
/// (docs/apps/thephone-backend.md, "Rules, with their source").
public struct Week: Codable, Sendable, Equatable {
    /// Monday 00:00 in the time zone, milliseconds since 1970.
    public let start: Int64
    /// The next Monday 00:00 (not always 7 × 24 h later: daylight saving time).
    public let end: Int64
    /// The Monday's date in the time zone, `YYYY-MM-DD` (the seed's `week_start DATE`).
    public let startDate: String

    /// The week that contains `timestamp` (milliseconds since 1970) in `timeZone`.
    public init(containing timestamp: Int64, in timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.firstWeekday = 2
        let date = Timestamps.date(timestamp)
        let interval = calendar.dateInterval(of: .weekOfYear, for: date) ?? DateInterval(start: date, duration: 0)
        let day = calendar.dateComponents([.year, .month, .day], from: interval.start)
        start = Timestamps.milliseconds(interval.start)
        end = Timestamps.milliseconds(interval.end)
        startDate = Timestamps.dayString(day)
    }

    /// The UTC week the seed's leaderboard reads (`getWeekStart(new Date(), 'UTC')`).
    public static func utc(containing timestamp: Int64) -> Week {
        Week(containing: timestamp, in: .gmt)
    }
}
