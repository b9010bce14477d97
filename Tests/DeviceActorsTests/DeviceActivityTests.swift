import Foundation
import Testing

@testable import Clarity
@testable import DeviceActors
@_spi(Host) @testable import SimulatediOS

/// DeviceActivity's platform rules (docs/platform.md), seen through the `monitor.*`
/// effects the platform delivers. The device starts Monday 2026-01-05 09:00 UTC, unlocked.
@Suite struct DeviceActivityTests {
    private func monitorEffects(_ outcome: DeviceOutcome) -> [String] {
        outcome.effects.compactMap { effect in
            switch effect.entry.payload {
            case .monitorIntervalStart(let activity): "start \(activity) @\(Int(effect.entry.time.seconds))"
            case .monitorIntervalEnd(let activity): "end \(activity) @\(Int(effect.entry.time.seconds))"
            case .monitorThreshold(let activity, let event): "threshold \(activity).\(event) @\(Int(effect.entry.time.seconds))"
            case .monitorWarning(let activity, let warning, let event):
                "warning \(warning.rawValue) \(activity)\(event.map { ".\($0)" } ?? "") @\(Int(effect.entry.time.seconds))"
            default: nil
            }
        }
    }

    private let tenToEleven = DeviceActivitySchedule(
        intervalStart: DateComponentsSpec(hour: 10, minute: 0), intervalEnd: DateComponentsSpec(hour: 11, minute: 0),
        repeats: true, warningTime: DateComponentsSpec(minute: 5))

    @Test func intervalAndWarningCallbacksFireAtTheirTimes() throws {
        let device = try makeClarityDevice()
        _ = try device.activityStart(name: "study", schedule: tenToEleven, events: [:])
        let outcome = try device.advance(seconds: 2 * 3600)
        #expect(
            monitorEffects(outcome) == [
                "warning intervalWillStart study @3300", "start study @3600", "warning intervalWillEnd study @6900",
                "end study @7200",
            ])
        let phase = try device.activities().first?.phase
        #expect(phase == "waiting")
    }

    /// A device whose clock sits between two seconds (a `wall` device, or a `start` of
    /// `….001Z`) entered the same interval again forever at its end. Each boundary fires once.
    @Test func aClockBetweenTwoSecondsCrossesEachBoundaryOnce() throws {
        let device = try SimulatedDevice(
            DeviceDescription(
                name: "v", apps: .registered([.clarity]), start: DeviceCalendar.parseISO("2026-01-05T09:00:00.001Z")!,
                timeZone: TimeZone(identifier: "UTC")!, seed: 0))
        let hourly = DeviceActivitySchedule(
            intervalStart: DateComponentsSpec(hour: 10), intervalEnd: DateComponentsSpec(hour: 11), repeats: true)
        _ = try device.activityStart(name: "study", schedule: hourly, events: [:])
        let outcome = try device.advance(seconds: 2 * 3600)
        #expect(monitorEffects(outcome) == ["start study @3599", "end study @7199"])
        #expect(try device.activities().first?.intervalStart == "2026-01-06T10:00:00Z")
    }

    /// `activity.list` counts the frontmost app's usage up to now, not up to the last event.
    @Test func progressIsCountedUpToNow() throws {
        let device = try makeClarityDevice()
        let daily = DeviceActivitySchedule(
            intervalStart: DateComponentsSpec(hour: 0, minute: 0), intervalEnd: DateComponentsSpec(hour: 23, minute: 59),
            repeats: true)
        _ = try device.activityStart(
            name: "social", schedule: daily,
            events: ["half": DeviceActivityEvent(applications: [instagram], threshold: DateComponentsSpec(minute: 30))])
        _ = try device.apply(.appOpen(app: instagram))
        _ = try device.advance(seconds: 120)
        #expect(try device.activities().first?.progress == ["half": 120])
    }

    @Test func callbacksWaitForDeviceUse() throws {
        let device = try makeClarityDevice()
        _ = try device.activityStart(
            name: "study",
            schedule: DeviceActivitySchedule(
                intervalStart: DateComponentsSpec(hour: 10, minute: 0), intervalEnd: DateComponentsSpec(hour: 11, minute: 0),
                repeats: true),
            events: [:])
        _ = try device.apply(.lock)
        let locked = try device.advance(seconds: 3600 + 600)
        #expect(monitorEffects(locked).isEmpty)
        let unlocked = try device.apply(.unlock)
        #expect(monitorEffects(unlocked) == ["start study @4200"])
    }

    @Test func stoppingARunningIntervalEndsItAtOnce() throws {
        let device = try makeClarityDevice()
        _ = try device.activityStart(
            name: "now",
            schedule: DeviceActivitySchedule(
                intervalStart: DateComponentsSpec(hour: 9, minute: 0), intervalEnd: DateComponentsSpec(hour: 12, minute: 0),
                repeats: false),
            events: [:])
        _ = try device.advance(seconds: 60)
        let stopped = try device.activityStop(names: ["now"])
        #expect(monitorEffects(stopped) == ["end now @60"])
        #expect(try device.activities().isEmpty)
    }

    @Test func categoryThresholdFiresOncePerIntervalAndOnlyForUnlockedForegroundUse() throws {
        let device = try makeClarityDevice()
        let schedule = DeviceActivitySchedule(
            intervalStart: DateComponentsSpec(hour: 9, minute: 0), intervalEnd: DateComponentsSpec(hour: 9, minute: 30),
            repeats: true)
        _ = try device.activityStart(
            name: "talk", schedule: schedule,
            events: ["chat": DeviceActivityEvent(categories: ["communication"], threshold: DateComponentsSpec(second: 30))])
        _ = try device.apply(.appOpen(app: "com.apple.MobileSMS"))
        _ = try device.advance(seconds: 20)
        _ = try device.apply(.lock)
        #expect(monitorEffects(try device.advance(seconds: 60)).isEmpty, "usage does not count while locked")
        _ = try device.apply(.unlock)
        _ = try device.apply(.appClose(app: "com.apple.MobileSMS"))
        _ = try device.apply(.appOpen(app: "com.apple.mobilephone"))
        let reached = try device.advance(seconds: 15)
        #expect(monitorEffects(reached) == ["threshold talk.chat @90"])
        #expect(monitorEffects(try device.advance(seconds: 600)).isEmpty, "once per interval")
        #expect(try device.state().usageTodayByCategory["communication"] == 635)
    }

    @Test func thresholdWarningIsClampedToTheIntervalStart() throws {
        let device = try makeClarityDevice()
        let schedule = DeviceActivitySchedule(
            intervalStart: DateComponentsSpec(hour: 10, minute: 0), intervalEnd: DateComponentsSpec(hour: 12, minute: 0),
            repeats: true, warningTime: DateComponentsSpec(minute: 10))
        _ = try device.activityStart(
            name: "social", schedule: schedule,
            events: ["limit": DeviceActivityEvent(applications: [instagram], threshold: DateComponentsSpec(minute: 5))])
        _ = try device.apply(.appOpen(app: instagram))
        let outcome = try device.advance(seconds: 3600 + 300)
        #expect(
            monitorEffects(outcome) == [
                "warning intervalWillStart social @3000", "start social @3600",
                "warning eventWillReachThreshold social.limit @3600", "threshold social.limit @3900",
            ])
    }

    @Test func thresholdsCountFromMonitoringStartUnlessTheQuirkIsOn() throws {
        for quirk in [false, true] {
            var config = DeviceConfig()
            config.quirks["thresholdFiresOnStart"] = quirk
            let device = try makeClarityDevice(config: config)
            _ = try device.apply(.appOpen(app: instagram))
            _ = try device.advance(seconds: 600)
            let started = try device.activityStart(
                name: "day",
                schedule: DeviceActivitySchedule(
                    intervalStart: DateComponentsSpec(hour: 0, minute: 0), intervalEnd: DateComponentsSpec(hour: 23, minute: 59),
                    repeats: true),
                events: ["five": DeviceActivityEvent(applications: [instagram], threshold: DateComponentsSpec(minute: 5))])
            let fired = monitorEffects(started).contains { $0.hasPrefix("threshold") }
            #expect(fired == quirk, "quirk \(quirk)")
        }
    }

    @Test func monitoringErrorsFollowApplesLimits() throws {
        let device = try makeClarityDevice()
        func reason(_ schedule: DeviceActivitySchedule) -> String? {
            do {
                _ = try device.activityStart(name: "x", schedule: schedule, events: [:])
                return nil
            } catch {
                if case .refused(let reason, _) = error { return reason }
                return "\(error)"
            }
        }
        #expect(
            reason(.init(intervalStart: .init(hour: 10), intervalEnd: .init(hour: 10, minute: 14), repeats: true))
                == "intervalTooShort")
        #expect(
            reason(.init(intervalStart: .init(hour: 10), intervalEnd: .init(hour: 10, minute: 15), repeats: true)) == nil)
        #expect(
            reason(.init(intervalStart: .init(month: 13, day: 1), intervalEnd: .init(month: 13, day: 2), repeats: false))
                == "invalidDateComponents")
    }
}
