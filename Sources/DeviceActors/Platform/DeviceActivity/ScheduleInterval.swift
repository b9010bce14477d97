import ExtensionSandbox
import Foundation

/// One interval of a schedule, in virtual time: `[start, end)`.
struct ScheduleInterval: Sendable, Hashable, Codable {
    var start: VirtualInstant
    var end: VirtualInstant

    func contains(_ instant: VirtualInstant) -> Bool { start <= instant && instant < end }
}

extension DeviceActivitySchedule {
    /// Apple's interval limits: at least 15 minutes, at most a week.
    static let minimumInterval: TimeInterval = 15 * 60
    static let maximumInterval: TimeInterval = 7 * 86_400

    /// The interval that contains `now`, or else the next one; nil when none is left.
    /// Throws the `MonitoringError` Apple would for components that can never work.
    func interval(at now: VirtualInstant, calendar: DeviceCalendar) throws(MonitoringError) -> ScheduleInterval? {
        let cal = calendar.calendar
        let nowDate = calendar.date(now)
        let startComponents = intervalStart.dateComponents
        let endComponents = intervalEnd.dateComponents
        guard !intervalStart.isEmpty, !intervalEnd.isEmpty else { throw .invalidDateComponents }
        var cursor = nowDate.addingTimeInterval(-Self.maximumInterval - 1)
        while let start = cal.nextDate(after: cursor, matching: startComponents, matchingPolicy: .nextTime) {
            guard let end = cal.nextDate(after: start, matching: endComponents, matchingPolicy: .nextTime) else {
                throw .invalidDateComponents
            }
            let length = end.timeIntervalSince(start)
            if length < Self.minimumInterval { throw .intervalTooShort }
            if length > Self.maximumInterval { throw .intervalTooLong }
            if end > nowDate {
                return ScheduleInterval(start: calendar.instant(start), end: calendar.instant(end))
            }
            cursor = start
        }
        return nil
    }
}
