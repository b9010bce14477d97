import ControlProtocol
import DeviceTesting
import ExtensionSandbox
import Foundation
import SimulatediOS
import Testing

@testable import ScrollKitty

/// The focus window (docs/apps/scrollkitty.md, "Intents"): shields only inside its hours and days,
/// its boundaries driven by the monitor's DeviceActivity intervals.
@Suite struct ScrollKittyFocusWindowTests {
    /// Every day but Monday (weekday 2) stops being monitored; Monday's interval is replaced.
    private var otherDaysStopped: [Effect] {
        [1, 3, 4, 5, 6, 7].map { .activityStop(activity: "scrollkitty_focus_\($0)") }
    }

    private func window(_ start: Int, _ end: Int, _ weekdays: [Int]) -> StoredValue {
        .dictionary(["startHour": .int(start), "endHour": .int(end), "weekdays": .array(weekdays.map(StoredValue.int))])
    }

    /// `setFocusWindow` for Mondays only at Monday 09:00, outside the window: the other days'
    /// activities stopped, Monday's restarted, the shield lifted.
    private func setMondayWindow(_ device: TestDevice, _ start: Int, _ end: Int) throws {
        try device.intent(
            "setFocusWindow", ["startHour": .int(start), "endHour": .int(end), "weekdays": [2]],
            effects: [.storeWrite(suite: group, key: "focusWindow", value: window(start, end, [2]))] + otherDaysStopped + [
                .activityStart(activity: "scrollkitty_focus_2"),
                .shieldClear(store: "scrollkitty"),
            ])
    }

    @Test func shieldsOnlyInsideTheWindow() throws {
        let device = try TestDevice.scrollKitty(selecting: [App.instagram], shares: [100])
        try setMondayWindow(device, 10, 12)
        var state = try device.appState(as: ScrollKittyState.self)
        #expect(state.inFocusWindow == false)
        #expect(state.apps[0].shielded == false)
        try device.advance(minutes: 59, effects: [])
        try device.advance(
            minutes: 1,
            effects: [
                .monitorIntervalStart(activity: "scrollkitty_focus_2"),
                .shieldApply(store: "scrollkitty", applications: [App.instagram], categories: .none),
            ])
        state = try device.appState(as: ScrollKittyState.self)
        #expect(state.inFocusWindow)
        #expect(state.apps[0].shielded)
        try device.advance(
            minutes: 120,
            effects: [.monitorIntervalEnd(activity: "scrollkitty_focus_2"), .shieldClear(store: "scrollkitty")])
        #expect(try device.appState(as: ScrollKittyState.self).inFocusWindow == false)
    }

    /// 22:00–02:00 on Mondays: Monday night into Tuesday's early hours, not Tuesday night.
    @Test func anOvernightWindowBelongsToItsStartDay() throws {
        let device = try TestDevice.scrollKitty(selecting: [App.instagram], shares: [100])
        try setMondayWindow(device, 22, 2)
        try device.advance(
            minutes: 13 * 60,
            effects: [
                .monitorIntervalStart(activity: "scrollkitty_focus_2"),
                .shieldApply(store: "scrollkitty", applications: [App.instagram], categories: .none),
            ])
        try device.advance(minutes: 3 * 60 + 59, effects: [])
        #expect(try device.appState(as: ScrollKittyState.self).inFocusWindow)  // Tuesday 01:59
        try device.advance(
            minutes: 1,
            effects: [.monitorIntervalEnd(activity: "scrollkitty_focus_2"), .shieldClear(store: "scrollkitty")])
        try device.advance(minutes: 20 * 60, effects: [])  // Tuesday 22:00
        #expect(try device.appState(as: ScrollKittyState.self).inFocusWindow == false)
    }

    /// Saturday 23:00–01:00: Sunday's first hour is Saturday's; Sunday's own night is not.
    @Test func anOvernightWindowWrapsFromSaturdayToSunday() throws {
        let calendar = DeviceCalendar(start: DeviceCalendar.parseISO("2026-01-10T00:00:00Z")!, timeZone: TimeZone(identifier: "UTC")!)
        let window = FocusWindow(startHour: 23, endHour: 1, weekdays: [7])
        let hours = [22.5, 23.5, 24.5, 25.5, 47.5]  // Saturday 22:30 … Sunday 23:30
        #expect(hours.map { window.contains(VirtualInstant(seconds: $0 * 3600), calendar: calendar) } == [false, true, true, false, false])
    }

    /// `startHour == endHour` is the whole of each window day.
    @Test func equalHoursMeanAllDay() throws {
        let calendar = DeviceCalendar(start: DeviceCalendar.parseISO("2026-01-05T00:00:00Z")!, timeZone: TimeZone(identifier: "UTC")!)
        let window = FocusWindow(startHour: 9, endHour: 9, weekdays: [2])  // Mondays
        let hours = [0.0, 8.5, 23.9, 24.1]  // Monday 00:00 … Tuesday 00:06
        #expect(hours.map { window.contains(VirtualInstant(seconds: $0 * 3600), calendar: calendar) } == [true, true, true, false])
    }
}
