import Foundation
import SimulatediOS

/// The hours and days the shields apply (seed 004, "Focus Window: User defines specific Hours &
/// Days for protection"). `[startHour:00, endHour:00)` local time on `weekdays` (1 = Sunday, as
/// Calendar). Project choices: `endHour < startHour` wraps past midnight, the part after midnight
/// belonging to the start day; `startHour == endHour` is the whole day; the default is all day,
/// every day.
struct FocusWindow: Codable, Sendable, Equatable {
    var startHour: Int
    var endHour: Int
    var weekdays: [Int]

    static let allDay = FocusWindow(startHour: 0, endHour: 0, weekdays: Array(1...7))

    var isAllDay: Bool { startHour == endHour }

    /// Whether `instant` falls inside the window.
    func contains(_ instant: VirtualInstant, calendar: DeviceCalendar) -> Bool {
        let date = calendar.date(instant)
        let weekday = calendar.calendar.component(.weekday, from: date)
        let hour = calendar.calendar.component(.hour, from: date)
        if isAllDay { return weekdays.contains(weekday) }
        if startHour < endHour { return weekdays.contains(weekday) && (startHour..<endHour).contains(hour) }
        // Overnight: the evening of a window day, or the early hours after one.
        let previousDay = weekday == 1 ? 7 : weekday - 1
        return (weekdays.contains(weekday) && hour >= startHour) || (weekdays.contains(previousDay) && hour < endHour)
    }

    /// The repeating DeviceActivity schedule of one window day: its interval starts and ends at
    /// the window's boundaries, so the monitor is woken there (the whole day when all day).
    func schedule(weekday: Int) -> DeviceActivitySchedule {
        let start = isAllDay ? 0 : startHour
        return DeviceActivitySchedule(
            intervalStart: DateComponentsSpec(weekday: weekday, hour: start, minute: 0, second: 0),
            intervalEnd: DateComponentsSpec(hour: isAllDay ? 0 : endHour, minute: 0, second: 0), repeats: true)
    }

    var storedValue: StoredValue {
        .dictionary([
            "startHour": .int(startHour), "endHour": .int(endHour), "weekdays": .array(weekdays.map(StoredValue.int)),
        ])
    }

    init(startHour: Int, endHour: Int, weekdays: [Int]) {
        self.startHour = startHour
        self.endHour = endHour
        self.weekdays = weekdays
    }

    /// The window stored under `focusWindow`; the default when none is.
    init(_ value: StoredValue?) {
        guard case .dictionary(let fields)? = value, let start = fields["startHour"]?.intValue,
            let end = fields["endHour"]?.intValue, case .array(let days)? = fields["weekdays"]
        else {
            self = .allDay
            return
        }
        self.init(startHour: start, endHour: end, weekdays: days.compactMap(\.intValue))
    }
}
