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

    public func date(_ instant: VirtualInstant) -> Date {
        start.addingTimeInterval(instant.seconds)
    }

    public func instant(_ date: Date) -> VirtualInstant {
        VirtualInstant(seconds: date.timeIntervalSince(start))
    }

    /// ISO-8601 UTC, as results report times (`2026-01-05T09:00:00Z`).
    public func isoString(_ instant: VirtualInstant) -> String {
        Self.isoString(date(instant))
    }

    public static func isoString(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        if date.timeIntervalSince1970.rounded() != date.timeIntervalSince1970 {
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        }
        return formatter.string(from: date)
    }

    public static func parseISO(_ string: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: string) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: string)
    }

    /// The start of the local day holding `instant`.
    public func startOfDay(_ instant: VirtualInstant) -> VirtualInstant {
        self.instant(calendar.startOfDay(for: date(instant)))
    }

    /// A stable name of the local day holding `instant` (`2026-01-05`).
    public func dayKey(_ instant: VirtualInstant) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date(instant))
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
