import ExtensionSandbox
import Foundation
import Testing

@_spi(Host) @testable import SimulatediOS

/// DeviceActivity's state machine, input by input: every action it returns, in order.
@Suite struct DeviceActivityDeliveryTests {
    /// Monday 2026-01-05 09:00 UTC is instant 0; the day's interval ends at 23:59:59.
    private let calendar = DeviceCalendar(
        start: DeviceCalendar.parseISO("2026-01-05T09:00:00Z")!, timeZone: TimeZone(identifier: "UTC")!)
    private let dayEnd = VirtualInstant(seconds: 14 * 3600 + 59 * 60 + 59)
    private let midnight = VirtualInstant(seconds: 15 * 3600)
    private let daily = DeviceActivitySchedule(
        intervalStart: DateComponentsSpec(hour: 0, minute: 0, second: 0),
        intervalEnd: DateComponentsSpec(hour: 23, minute: 59, second: 59), repeats: true)
    private let fiveMinutes = ["five": DeviceActivityEvent(applications: [instagram], threshold: DateComponentsSpec(minute: 5))]

    private func at(_ seconds: Double) -> VirtualInstant { VirtualInstant(seconds: seconds) }

    private func connected() -> DeviceActivityDelivery {
        var delivery = DeviceActivityDelivery(calendar: calendar, catalog: .builtIn, now: at(0))
        delivery.connect()
        return delivery
    }

    @Test func startingInsideTheIntervalStartsItAtOnceAndWakesAtItsEnd() throws {
        var delivery = connected()
        #expect(
            try delivery.startMonitoring("day", schedule: daily, events: [:], at: at(0)) == [
                .trace(.activityStart(activity: "day")), .deliver([.intervalDidStart(activity: "day")]), .wake(at: dayEnd),
            ])
        #expect(delivery.activities["day"]?.phase == .active)
        #expect(delivery.wake(at: dayEnd) == [.deliver([.intervalDidEnd(activity: "day")]), .wake(at: midnight)])
        #expect(delivery.activities["day"]?.phase == .waiting)
        #expect(delivery.wake(at: midnight) == [.deliver([.intervalDidStart(activity: "day")]), .wake(at: dayEnd + .seconds(86_400))])
    }

    @Test func callbacksWaitForTheMonitorToBeConnectedAndTheDeviceToBeInUse() throws {
        var delivery = DeviceActivityDelivery(calendar: calendar, catalog: .builtIn, now: at(0))
        #expect(delivery.setInUse(false, at: at(0)) == [.wake(at: nil)])
        #expect(
            try delivery.startMonitoring("day", schedule: daily, events: [:], at: at(0)) == [
                .trace(.activityStart(activity: "day")), .wake(at: dayEnd),
            ])
        delivery.connect()
        #expect(delivery.setInUse(false, at: at(10)) == [.wake(at: dayEnd)])
        #expect(delivery.setInUse(true, at: at(20)) == [.deliver([.intervalDidStart(activity: "day")]), .wake(at: dayEnd)])
    }

    @Test func usageOfTheFrontmostAppReachesTheThresholdOncePerInterval() throws {
        var delivery = connected()
        _ = try delivery.startMonitoring("day", schedule: daily, events: fiveMinutes, at: at(0))
        #expect(delivery.setForegroundUsage(app: instagram, at: at(0)) == [.wake(at: at(300))])
        #expect(delivery.setForegroundUsage(app: nil, at: at(120)) == [.wake(at: dayEnd)])
        #expect(delivery.activities["day"]?.progress["five"] == 120_000)
        #expect(delivery.setForegroundUsage(app: instagram, at: at(200)) == [.wake(at: at(380))])
        #expect(
            delivery.wake(at: at(380)) == [
                .deliver([.eventDidReachThreshold(event: "five", activity: "day")]), .wake(at: dayEnd),
            ])
        #expect(delivery.usageByDay["2026-01-05"]?[instagram] == 300_000)
        #expect(delivery.wake(at: at(1000)) == [.wake(at: dayEnd)])
    }

    /// Usage is counted to the day it was last counted on, so midnight is a deadline while an
    /// app is in use: waking there splits the days.
    @Test func usageCountsPerDayAndMidnightIsADeadlineWhileAnAppIsInUse() {
        var delivery = connected()
        #expect(delivery.setForegroundUsage(app: instagram, at: at(0)) == [.wake(at: midnight)])
        #expect(delivery.wake(at: midnight) == [.wake(at: midnight + .seconds(86_400))])
        delivery.accrue(to: midnight + .seconds(60))
        #expect(delivery.usageByDay == ["2026-01-05": [instagram: 15 * 3_600_000], "2026-01-06": [instagram: 60_000]])
    }

    @Test func stoppingARunningIntervalEndsItAtOnceEvenWhenLocked() throws {
        var delivery = connected()
        _ = try delivery.startMonitoring("day", schedule: daily, events: [:], at: at(0))
        _ = delivery.setInUse(false, at: at(5))
        #expect(
            delivery.stopMonitoring(["day", "unknown"], at: at(10)) == [
                .trace(.activityStop(activity: "day")), .deliver([.intervalDidEnd(activity: "day")]), .wake(at: nil),
            ])
        #expect(delivery.activities.isEmpty)
    }

    @Test func refusalsChangeNothing() throws {
        var delivery = connected()
        delivery.authorized = false
        #expect(throws: MonitoringError.unauthorized) {
            try delivery.startMonitoring("day", schedule: daily, events: [:], at: at(0))
        }
        delivery.authorized = true
        for index in 0..<DeviceActivityAgent.maxActivities {
            _ = try delivery.startMonitoring("a\(index)", schedule: daily, events: [:], at: at(0))
        }
        #expect(throws: MonitoringError.excessiveActivities) {
            try delivery.startMonitoring("one more", schedule: daily, events: [:], at: at(0))
        }
        #expect(delivery.activities.count == DeviceActivityAgent.maxActivities)
    }

    @Test func batchedThresholdsWaitForTheNextMultipleOfTheInterval() throws {
        var delivery = connected()
        delivery.thresholdBatchInterval = .seconds(60)
        _ = try delivery.startMonitoring("day", schedule: daily, events: fiveMinutes, at: at(0))
        _ = delivery.setForegroundUsage(app: instagram, at: at(30))
        #expect(delivery.wake(at: at(330)) == [.wake(at: at(360))])
        #expect(
            delivery.wake(at: at(360)) == [
                .deliver([.eventDidReachThreshold(event: "five", activity: "day")]), .wake(at: dayEnd),
            ])
    }
}
