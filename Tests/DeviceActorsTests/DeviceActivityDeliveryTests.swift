import ExtensionSandbox
import Foundation
import Testing

@_spi(Host) @testable import SimulatediOS

/// The local day of instant 0 (its usage key).
private let monday = "2026-01-05"

/// DeviceActivity's state machine, input by input: every action it returns, in order, and every
/// change to its state.
@Suite struct DeviceActivityDeliveryTests {
    typealias Tester = StateMachineTester<DeviceActivityDelivery, DeviceActivityDelivery.State>

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

    /// Monday's interval of ``daily``, and Tuesday's.
    private var today: ScheduleInterval { ScheduleInterval(start: at(-9 * 3600), end: dayEnd) }
    private var tomorrow: ScheduleInterval { ScheduleInterval(start: midnight, end: dayEnd + .seconds(86_400)) }

    private func activity(
        _ name: String, _ schedule: DeviceActivitySchedule? = nil, events: [String: DeviceActivityEvent] = [:],
        interval: ScheduleInterval? = nil, phase: MonitoredActivity.Phase = .active
    ) -> MonitoredActivity {
        MonitoredActivity(name: name, schedule: schedule ?? daily, events: events, interval: interval ?? today, phase: phase)
    }

    private func delivery(connected: Bool = true) -> Tester {
        var delivery = DeviceActivityDelivery(calendar: calendar, catalog: .builtIn, now: at(0))
        if connected { delivery.connect() }
        return Tester(delivery, state: \.state)
    }

    /// The input `startMonitoring(name, schedule, events)` at `seconds`.
    private func starting(
        _ name: String, _ schedule: DeviceActivitySchedule? = nil, events: [String: DeviceActivityEvent] = [:],
        at seconds: Double = 0
    ) -> (inout DeviceActivityDelivery) throws -> [DeviceActivityDelivery.Action] {
        { try $0.startMonitoring(name, schedule: schedule ?? daily, events: events, at: at(seconds)) }
    }

    /// Starts ``daily`` as `name` at instant 0, inside its interval: it starts at once.
    private func startDaily(_ name: String = "day", events: [String: DeviceActivityEvent] = [:], in delivery: inout Tester) {
        delivery.send(
            starting(name, events: events),
            returns: [.trace(.activityStart(activity: name)), .deliver([.intervalDidStart(activity: name)]), .wake(at: dayEnd)]
        ) { $0.activities[name] = activity(name, events: events) }
    }

    @Test func theMonitorConnects() {
        var delivery = delivery(connected: false)
        delivery.send({ $0.connect() }) { $0.connected = true }
    }

    @Test func startingInsideTheIntervalStartsItAtOnceAndWakesAtItsEnd() {
        var delivery = delivery()
        startDaily(in: &delivery)
        delivery.send({ $0.wake(at: dayEnd) }, returns: [.deliver([.intervalDidEnd(activity: "day")]), .wake(at: midnight)]) {
            $0.lastAccrual = dayEnd
            $0.activities["day"]!.interval = tomorrow
            $0.activities["day"]!.phase = .waiting
        }
        delivery.send(
            { $0.wake(at: midnight) }, returns: [.deliver([.intervalDidStart(activity: "day")]), .wake(at: tomorrow.end)]
        ) {
            $0.lastAccrual = midnight
            $0.activities["day"]!.phase = .active
        }
    }

    @Test func callbacksWaitForTheMonitorToBeConnectedAndTheDeviceToBeInUse() {
        var delivery = delivery(connected: false)
        delivery.send({ $0.setInUse(false, at: at(0)) }, returns: [.wake(at: nil)]) { $0.inUse = false }
        delivery.send(
            starting("day"),
            returns: [.trace(.activityStart(activity: "day")), .wake(at: dayEnd)]
        ) {
            $0.activities["day"] = activity("day")
            $0.pending = [.intervalDidStart(activity: "day")]
        }
        delivery.send({ $0.connect() }) { $0.connected = true }
        delivery.send({ $0.setInUse(false, at: at(10)) }, returns: [.wake(at: dayEnd)]) { $0.lastAccrual = at(10) }
        delivery.send(
            { $0.setInUse(true, at: at(20)) }, returns: [.deliver([.intervalDidStart(activity: "day")]), .wake(at: dayEnd)]
        ) {
            $0.lastAccrual = at(20)
            $0.inUse = true
            $0.pending = []
        }
    }

    @Test func usageOfTheFrontmostAppReachesTheThresholdOncePerInterval() {
        var delivery = delivery()
        startDaily(events: fiveMinutes, in: &delivery)
        delivery.send({ $0.setForegroundUsage(app: instagram, at: at(0)) }, returns: [.wake(at: at(300))]) {
            $0.foregroundApp = instagram
        }
        delivery.send({ $0.setForegroundUsage(app: nil, at: at(120)) }, returns: [.wake(at: dayEnd)]) {
            $0.foregroundApp = nil
            $0.count(instagram, total: 120_000, toward: "five", of: "day", until: at(120), spans: [UsageSpan(app: instagram, start: at(0), end: at(120))])
        }
        delivery.send({ $0.setForegroundUsage(app: instagram, at: at(200)) }, returns: [.wake(at: at(380))]) {
            $0.foregroundApp = instagram
            $0.lastAccrual = at(200)
        }
        delivery.send(
            { $0.wake(at: at(380)) },
            returns: [.deliver([.eventDidReachThreshold(event: "five", activity: "day")]), .wake(at: dayEnd)]
        ) {
            $0.count(instagram, total: 300_000, toward: "five", of: "day", until: at(380), spans: [UsageSpan(app: instagram, start: at(0), end: at(120)), UsageSpan(app: instagram, start: at(200), end: at(380))])
            $0.activities["day"]!.reached = ["five"]
        }
        delivery.send({ $0.wake(at: at(1000)) }, returns: [.wake(at: dayEnd)]) {
            $0.count(instagram, total: 920_000, toward: "five", of: "day", until: at(1000), spans: [UsageSpan(app: instagram, start: at(0), end: at(120)), UsageSpan(app: instagram, start: at(200), end: at(1000))])
        }
    }

    /// Usage is counted to the day it was last counted on, so midnight is a deadline while an
    /// app is in use: waking there splits the days. A new day's usage replaces the last day's
    /// (only today's is ever read).
    @Test func usageCountsPerDayAndMidnightIsADeadlineWhileAnAppIsInUse() {
        var delivery = delivery()
        delivery.send({ $0.setForegroundUsage(app: instagram, at: at(0)) }, returns: [.wake(at: midnight)]) {
            $0.foregroundApp = instagram
        }
        delivery.send({ $0.wake(at: midnight) }, returns: [.wake(at: midnight + .seconds(86_400))]) {
            $0.lastAccrual = midnight
            $0.usageByDay = [monday: [instagram: 15 * 3_600_000]]
            $0.usageToday = [UsageSpan(app: instagram, start: at(0), end: midnight)]
        }
        delivery.send({ $0.accrue(to: midnight + .seconds(60)) }) {
            $0.lastAccrual = midnight + .seconds(60)
            $0.usageByDay = ["2026-01-06": [instagram: 60_000]]
            $0.usageToday = [UsageSpan(app: instagram, start: midnight, end: midnight + .seconds(60))]
        }
    }

    /// Warnings come `warningTime` before the start, the end and each threshold (clamped to the
    /// start); an event counts its categories' apps; a schedule that does not repeat finishes.
    @Test func warningsCategoriesAndAScheduleThatDoesNotRepeat() {
        let tenToEleven = DeviceActivitySchedule(
            intervalStart: DateComponentsSpec(hour: 10, minute: 0), intervalEnd: DateComponentsSpec(hour: 11, minute: 0),
            repeats: false, warningTime: DateComponentsSpec(minute: 10))
        let social = ["social": DeviceActivityEvent(categories: ["social"], threshold: DateComponentsSpec(minute: 5))]
        let hour = ScheduleInterval(start: at(3600), end: at(7200))
        let tiktok = "com.zhiliaoapp.musically"
        var delivery = delivery()
        delivery.send(
            starting("hour", tenToEleven, events: social),
            returns: [.trace(.activityStart(activity: "hour")), .wake(at: at(3000))]
        ) { $0.activities["hour"] = activity("hour", tenToEleven, events: social, interval: hour, phase: .waiting) }
        delivery.send(
            { $0.wake(at: at(3000)) }, returns: [.deliver([.intervalWillStartWarning(activity: "hour")]), .wake(at: at(3600))]
        ) {
            $0.lastAccrual = at(3000)
            $0.activities["hour"]!.warned = ["start"]
        }
        delivery.send(
            { $0.wake(at: at(3600)) },
            returns: [
                .deliver([
                    .intervalDidStart(activity: "hour"), .eventWillReachThresholdWarning(event: "social", activity: "hour"),
                ]),
                .wake(at: at(6600)),
            ]
        ) {
            $0.lastAccrual = at(3600)
            $0.activities["hour"]!.phase = .active
            $0.activities["hour"]!.warned = ["social"]
        }
        delivery.send({ $0.setForegroundUsage(app: tiktok, at: at(4000)) }, returns: [.wake(at: at(4300))]) {
            $0.lastAccrual = at(4000)
            $0.foregroundApp = tiktok
        }
        delivery.send(
            { $0.wake(at: at(4300)) },
            returns: [.deliver([.eventDidReachThreshold(event: "social", activity: "hour")]), .wake(at: at(6600))]
        ) {
            $0.count(tiktok, total: 300_000, toward: "social", of: "hour", until: at(4300), spans: [UsageSpan(app: tiktok, start: at(4000), end: at(4300))])
            $0.activities["hour"]!.reached = ["social"]
        }
        delivery.send(
            { $0.wake(at: at(6600)) }, returns: [.deliver([.intervalWillEndWarning(activity: "hour")]), .wake(at: at(7200))]
        ) {
            $0.count(tiktok, total: 2_600_000, toward: "social", of: "hour", until: at(6600), spans: [UsageSpan(app: tiktok, start: at(4000), end: at(6600))])
            $0.activities["hour"]!.warned = ["social", "end"]
        }
        delivery.send({ $0.wake(at: at(7200)) }, returns: [.deliver([.intervalDidEnd(activity: "hour")]), .wake(at: midnight)]) {
            $0.count(tiktok, total: 3_200_000, toward: "social", of: "hour", until: at(7200), spans: [UsageSpan(app: tiktok, start: at(4000), end: at(7200))])
            $0.activities["hour"]!.warned = []
            $0.activities["hour"]!.phase = .finished
        }
    }

    @Test func stoppingARunningIntervalEndsItAtOnceEvenWhenLocked() {
        var delivery = delivery()
        startDaily(in: &delivery)
        delivery.send({ $0.setInUse(false, at: at(5)) }, returns: [.wake(at: dayEnd)]) {
            $0.lastAccrual = at(5)
            $0.inUse = false
        }
        delivery.send(
            { $0.stopMonitoring(["day", "unknown"], at: at(10)) },
            returns: [.trace(.activityStop(activity: "day")), .deliver([.intervalDidEnd(activity: "day")]), .wake(at: nil)]
        ) {
            $0.lastAccrual = at(10)
            $0.activities = [:]
        }
    }

    @Test func stoppingAnActivityBeforeItsIntervalEndsNothing() {
        let evening = DeviceActivitySchedule(
            intervalStart: DateComponentsSpec(hour: 20, minute: 0), intervalEnd: DateComponentsSpec(hour: 22, minute: 0),
            repeats: true)
        var delivery = delivery()
        delivery.send(
            starting("evening", evening),
            returns: [.trace(.activityStart(activity: "evening")), .wake(at: at(11 * 3600))]
        ) {
            $0.activities["evening"] = activity(
                "evening", evening, interval: ScheduleInterval(start: at(11 * 3600), end: at(13 * 3600)), phase: .waiting)
        }
        delivery.send(
            { $0.stopMonitoring(["evening"], at: at(60)) }, returns: [.trace(.activityStop(activity: "evening")), .wake(at: nil)]
        ) {
            $0.lastAccrual = at(60)
            $0.activities = [:]
        }
    }

    @Test func refusalsChangeNothing() {
        var delivery = delivery()
        delivery.machine.authorized = false
        delivery.send(starting("day"), throws: MonitoringError.unauthorized)
        delivery.machine.authorized = true
        let lastYear = DeviceActivitySchedule(
            intervalStart: DateComponentsSpec(year: 2025, month: 1, day: 1, hour: 0),
            intervalEnd: DateComponentsSpec(year: 2025, month: 1, day: 1, hour: 12), repeats: false)
        delivery.send(
            starting("past", lastYear), throws: MonitoringError.invalidDateComponents)
        let tenMinutes = DeviceActivitySchedule(
            intervalStart: DateComponentsSpec(hour: 10, minute: 0), intervalEnd: DateComponentsSpec(hour: 10, minute: 10),
            repeats: true)
        delivery.send(
            starting("short", tenMinutes), throws: MonitoringError.intervalTooShort)
        for index in 0..<DeviceActivityAgent.maxActivities {
            startDaily("a\(index)", in: &delivery)
        }
        delivery.send(
            starting("one more"),
            throws: MonitoringError.excessiveActivities)
    }

    /// At the limit an activity can still be started again under its name: it is replaced, and
    /// mid-interval it starts again at once.
    @Test func startingUnderAnExistingNameReplacesTheActivity() {
        var delivery = delivery()
        for index in 0..<DeviceActivityAgent.maxActivities {
            startDaily("a\(index)", in: &delivery)
        }
        startDaily("a0", events: fiveMinutes, in: &delivery)
    }

    @Test func batchedThresholdsWaitForTheNextMultipleOfTheInterval() {
        var delivery = delivery()
        delivery.machine.thresholdBatchInterval = .seconds(60)
        startDaily(events: fiveMinutes, in: &delivery)
        delivery.send({ $0.setForegroundUsage(app: instagram, at: at(30)) }, returns: [.wake(at: at(330))]) {
            $0.lastAccrual = at(30)
            $0.foregroundApp = instagram
        }
        delivery.send({ $0.wake(at: at(330)) }, returns: [.wake(at: at(360))]) {
            $0.count(instagram, total: 300_000, toward: "five", of: "day", until: at(330), spans: [UsageSpan(app: instagram, start: at(30), end: at(330))])
            $0.activities["day"]!.reached = ["five"]
            $0.batched = [.eventDidReachThreshold(event: "five", activity: "day")]
            $0.batchFlushAt = at(360)
        }
        delivery.send(
            { $0.wake(at: at(360)) },
            returns: [.deliver([.eventDidReachThreshold(event: "five", activity: "day")]), .wake(at: dayEnd)]
        ) {
            $0.count(instagram, total: 330_000, toward: "five", of: "day", until: at(360), spans: [UsageSpan(app: instagram, start: at(30), end: at(360))])
            $0.batched = []
            $0.batchFlushAt = nil
        }
    }

    /// `thresholdFiresOnStart`: usage earlier in the interval counts, so a threshold already passed
    /// fires as monitoring starts. The interval is entered without `intervalDidStart` (as before
    /// the state machine was extracted).
    @Test func thresholdFiresOnStartCountsTheIntervalsEarlierUsage() {
        var delivery = delivery()
        delivery.machine.thresholdFiresOnStart = true
        delivery.send({ $0.setForegroundUsage(app: instagram, at: at(0)) }, returns: [.wake(at: midnight)]) {
            $0.foregroundApp = instagram
        }
        delivery.send({ $0.setForegroundUsage(app: nil, at: at(400)) }, returns: [.wake(at: nil)]) {
            $0.lastAccrual = at(400)
            $0.foregroundApp = nil
            $0.usageByDay = [monday: [instagram: 400_000]]
            $0.usageToday = [UsageSpan(app: instagram, start: at(0), end: at(400))]
        }
        delivery.send(
            starting("day", events: fiveMinutes, at: 500),
            returns: [
                .trace(.activityStart(activity: "day")), .deliver([.eventDidReachThreshold(event: "five", activity: "day")]),
                .wake(at: dayEnd),
            ]
        ) {
            $0.lastAccrual = at(500)
            var day = activity("day", events: fiveMinutes)
            day.progress = ["five": 400_000]
            day.reached = ["five"]
            $0.activities["day"] = day
        }
    }

    /// `thresholdFiresOnStart` counts the interval's usage, not the day's: five minutes of
    /// Instagram before a 09:30 interval and four inside it make four, and nothing fires.
    @Test func thresholdFiresOnStartCountsOnlyUsageInsideTheInterval() {
        var delivery = delivery()
        delivery.machine.thresholdFiresOnStart = true
        let fromHalfPast = DeviceActivitySchedule(
            intervalStart: DateComponentsSpec(hour: 9, minute: 30, second: 0),
            intervalEnd: DateComponentsSpec(hour: 23, minute: 59, second: 59), repeats: true)
        delivery.send({ $0.setForegroundUsage(app: instagram, at: at(0)) }, returns: [.wake(at: midnight)]) {
            $0.foregroundApp = instagram
        }
        delivery.send({ $0.setForegroundUsage(app: nil, at: at(300)) }, returns: [.wake(at: nil)]) {
            $0.lastAccrual = at(300)
            $0.foregroundApp = nil
            $0.usageByDay = [monday: [instagram: 300_000]]
            $0.usageToday = [UsageSpan(app: instagram, start: at(0), end: at(300))]
        }
        delivery.send({ $0.setForegroundUsage(app: instagram, at: at(2400)) }, returns: [.wake(at: midnight)]) {
            $0.lastAccrual = at(2400)
            $0.foregroundApp = instagram
        }
        delivery.send({ $0.setForegroundUsage(app: nil, at: at(2640)) }, returns: [.wake(at: nil)]) {
            $0.lastAccrual = at(2640)
            $0.foregroundApp = nil
            $0.usageByDay = [monday: [instagram: 540_000]]
            $0.usageToday = [
                UsageSpan(app: instagram, start: at(0), end: at(300)), UsageSpan(app: instagram, start: at(2400), end: at(2640)),
            ]
        }
        delivery.send(
            starting("late", fromHalfPast, events: fiveMinutes, at: 3600),
            returns: [.trace(.activityStart(activity: "late")), .wake(at: dayEnd)]
        ) {
            $0.lastAccrual = at(3600)
            var late = activity("late", fromHalfPast, events: fiveMinutes, interval: ScheduleInterval(start: at(1800), end: dayEnd))
            late.progress = ["five": 240_000]
            $0.activities["late"] = late
        }
    }

    /// A restored device keeps its activities and usage and sets its timer; nothing is replayed.
    @Test func restoringSetsTheTimerWithoutCallbacks() {
        var day = activity("day", events: fiveMinutes)
        day.progress = ["five": 60_000]
        var delivery = delivery()
        delivery.send(
            {
                $0.restore(
                    activities: ["day": day], usageByDay: [monday: [instagram: 60_000]], usageToday: [],
                    queue: MonitorCallbackQueue(), at: at(100))
            },
            returns: [.wake(at: dayEnd)]
        ) {
            $0.lastAccrual = at(100)
            $0.activities = ["day": day]
            $0.usageByDay = [monday: [instagram: 60_000]]
        }
    }

    /// The callbacks held when the snapshot was taken come back held: those waiting for the
    /// device's use stay waiting (they go out at its next use, not at the restore), and a batch
    /// sets the timer for its time.
    @Test func restoringKeepsTheHeldCallbacks() {
        let day = activity("day", events: fiveMinutes)
        let queue = MonitorCallbackQueue(
            pending: [.intervalDidStart(activity: "day")], batched: [.eventDidReachThreshold(event: "five", activity: "day")],
            batchFlushAt: at(160))
        var delivery = delivery()
        delivery.send(
            { $0.restore(activities: ["day": day], usageByDay: [:], usageToday: [], queue: queue, at: at(100)) },
            returns: [.wake(at: at(160))]
        ) {
            $0.lastAccrual = at(100)
            $0.activities = ["day": day]
            $0.pending = queue.pending
            $0.batched = queue.batched
            $0.batchFlushAt = at(160)
        }
        #expect(delivery.machine.queue == queue)
    }
}

extension DeviceActivityDelivery.State {
    /// Usage of `app` counted up to `instant`: `total` milliseconds in all on ``monday`` (today's
    /// `spans`), all of it toward `event` of `activity`.
    fileprivate mutating func count(
        _ app: String, total: Int64, toward event: String, of activity: String, until instant: VirtualInstant,
        spans: [UsageSpan]
    ) {
        lastAccrual = instant
        usageByDay = [monday: [app: total]]
        usageToday = spans
        activities[activity]!.progress = [event: total]
    }
}
