import ExtensionSandbox
import Foundation

/// One interval of a schedule, in virtual time: `[start, end)`.
@_spi(Host) public struct ScheduleInterval: Sendable, Hashable, Codable {
    @_spi(Host) public var start: VirtualInstant
    @_spi(Host) public var end: VirtualInstant

    @_spi(Host) public func contains(_ instant: VirtualInstant) -> Bool { start <= instant && instant < end }
}

extension DeviceActivitySchedule {
    /// Apple's interval limits: at least 15 minutes, at most a week.
    @_spi(Host) public static let minimumInterval: TimeInterval = 15 * 60
    @_spi(Host) public static let maximumInterval: TimeInterval = 7 * 86_400

    /// Interval searches already made, by any device of the process.
    private static let searches = SharedMemo<IntervalSearch, Result<(start: Date, end: Date)?, MonitoringError>>()

    /// How many candidate starts a search looks at before giving up (components that match
    /// only rarely, such as February 29 on a Monday, could otherwise search for ages).
    @_spi(Host) public static let searchLimit = 1_000

    /// The interval that contains `now`, or else the next one; nil when none is left.
    /// Throws the `MonitoringError` Apple would for components that can never work.
    ///
    /// Calendar components match whole seconds, so the search runs on whole seconds: from a
    /// sub-second instant `Calendar.nextDate` can answer the same date again and never move on.
    /// Each step moves the cursor forward, and the search is bounded (``searchLimit``).
    @_spi(Host) public func interval(at now: VirtualInstant, calendar: DeviceCalendar) throws(MonitoringError) -> ScheduleInterval? {
        let nowDate = calendar.date(now)
        let key = IntervalSearch(intervalStart: intervalStart, intervalEnd: intervalEnd, timeZone: calendar.timeZone, now: nowDate)
        let found = try Self.searches.value(for: key) { key in
            Result { () throws(MonitoringError) in try searchInterval(at: key.now, calendar: calendar.calendar) }
        }.get()
        return found.map { ScheduleInterval(start: calendar.instant($0.start), end: calendar.instant($0.end)) }
    }

    /// The search behind ``interval(at:calendar:)``, in dates.
    private func searchInterval(at nowDate: Date, calendar cal: Calendar) throws(MonitoringError) -> (start: Date, end: Date)? {
        let startComponents = intervalStart.dateComponents
        let endComponents = intervalEnd.dateComponents
        guard !intervalStart.isEmpty, !intervalEnd.isEmpty else { throw .invalidDateComponents }
        var cursor = Self.wholeSecond(nowDate.addingTimeInterval(-Self.maximumInterval - 1))
        for _ in 0..<Self.searchLimit {
            guard let found = cal.nextDate(after: cursor, matching: startComponents, matchingPolicy: .nextTime) else {
                return nil
            }
            let start = Self.wholeSecond(found)
            guard start > cursor else {
                cursor = cursor.addingTimeInterval(1)
                continue
            }
            guard let foundEnd = cal.nextDate(after: start, matching: endComponents, matchingPolicy: .nextTime) else {
                throw .invalidDateComponents
            }
            let end = Self.wholeSecond(foundEnd)
            let length = end.timeIntervalSince(start)
            if length < Self.minimumInterval { throw .intervalTooShort }
            if length > Self.maximumInterval { throw .intervalTooLong }
            if end > nowDate { return (start, end) }
            cursor = start
        }
        throw .invalidDateComponents
    }

    /// `date` rounded down to a whole second since the reference date.
    private static func wholeSecond(_ date: Date) -> Date {
        Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.rounded(.down))
    }
}

/// What an interval search depends on: the search is a pure function of these, and an
/// expensive one (a dozen `Calendar.nextDate` calls); an exploration starts the same monitoring
/// at the same instants in every schedule it runs, and spent a third of its time here.
@_spi(Host) public struct IntervalSearch: Hashable, Sendable {
    @_spi(Host) public var intervalStart: DateComponentsSpec
    @_spi(Host) public var intervalEnd: DateComponentsSpec
    @_spi(Host) public var timeZone: TimeZone
    @_spi(Host) public var now: Date
}
