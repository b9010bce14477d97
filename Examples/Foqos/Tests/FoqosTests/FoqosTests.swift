import DeviceTesting
import Foundation
import Testing

@testable import Foqos
import SimulatediOS

/// Foqos's extensions on a simulated device, driven by the port's main app: each step lists every
/// effect it causes (the harness fails a step that causes one more, or one less). The App Group
/// values are the original's JSON snapshots, built here with the port's own types.
@Suite struct FoqosTests {
    private let group = FoqosKeys.appGroup
    private let store = FoqosKeys.store
    private let instagram = "com.burbn.instagram"
    private let youTube = "com.google.ios.youtube"
    private let reddit = "reddit.com"
    /// The ids the device's seeded generator hands out for `UUID()` (`platform.uuid()`), in order:
    /// the profile's, then the session's.
    private let profileId = "68ECCB03-907E-77E4-A16E-00E92873A3B8"
    private let sessionId = "01754401-E24E-7E7B-6E44-0BD8A3BF86D4"
    private var strategyActivity: String { "StrategyTimerActivity:\(profileId)" }
    private var breakActivity: String { "BreakScheduleActivity:\(profileId)" }

    /// A shield as Foqos draws it: one of its seventeen "fun block messages" (picked by an FNV-1a
    /// hash of the app's name, or the website's domain, xor the day), white on the theme colour
    /// under a dark blur, the message's emoji as its icon, one white button.
    private func funBlock(_ emoji: String, _ title: String, _ subtitle: String, _ button: String) -> ShieldConfiguration {
        ShieldConfiguration(
            backgroundBlurStyle: "dark", backgroundColor: "#894fa3", icon: emoji,
            title: .init(text: title, color: "white"), subtitle: .init(text: subtitle, color: "#ffffffe0"),
            primaryButtonLabel: .init(text: button, color: "black"), primaryButtonBackgroundColor: "white")
    }

    /// The shield over Instagram on Monday 2026-01-05 (20260105).
    private var lockedIn: ShieldConfiguration {
        funBlock("🔒", "Locked in", "This is a temporary block for a long-term win.", "Return")
    }

    private func date(_ iso: String) -> Date { DeviceCalendar.parseISO(iso)! }

    /// The bytes the port writes for `value` (the original's `JSONEncoder`, keys sorted).
    private func stored<T: Encodable>(_ value: T) throws -> StoredValue { .data(try SharedData.encoder().encode(value)) }

    /// "Deep work": Instagram (and these categories and websites), the timer strategy, as the
    /// profile form saves it at 09:00.
    private func profile(
        on device: TestDevice, breakMinutes: Int? = nil, strategyMinutes: Int? = nil, schedule: BlockedProfileSchedule? = nil,
        categories: Set<String> = [], webDomains: Set<String> = [], allowMode: Bool = false
    ) throws -> SharedData.ProfileSnapshot {
        SharedData.ProfileSnapshot(
            id: UUID(uuidString: profileId)!, name: "Deep work",
            selectedActivity: try device.familyActivityPicker.selection(
                applications: [instagram], categories: categories.sorted(), webDomains: webDomains.sorted()),
            createdAt: date("2026-01-05T09:00:00Z"), updatedAt: date("2026-01-05T09:00:00Z"),
            blockingStrategyId: "ShortcutTimerBlockingStrategy",
            strategyData: strategyMinutes.flatMap {
                StrategyTimerData.toData(from: StrategyTimerData(durationInMinutes: $0, hideStopButton: false))
            },
            order: 0, enableLiveActivity: false, reminderTimeInSeconds: nil, customReminderMessage: "",
            enableBreaks: breakMinutes != nil, breakTimeInMinutes: breakMinutes ?? 15, allowMultipleBreaks: false,
            enableStrictMode: false, enableBlockAppInstallation: false, enableAllowMode: allowMode,
            enableAllowModeDomains: false, enableSafariBlocking: true, enableAdultContentBlocking: false,
            enableMacSync: false, domains: nil, schedule: schedule, disableBackgroundStops: false,
            enableEmergencyUnblock: true)
    }

    private func session(
        tag: String = "ShortcutTimerBlockingStrategy", start: String = "2026-01-05T09:00:00Z", end: String? = nil,
        breakStart: String? = nil, breakEnd: String? = nil, forceStarted: Bool = false
    ) -> SharedData.SessionSnapshot {
        SharedData.SessionSnapshot(
            id: sessionId, tag: tag, blockedProfileId: UUID(uuidString: profileId)!, startTime: date(start),
            endTime: end.map(date), breakStartTime: breakStart.map(date), breakEndTime: breakEnd.map(date),
            forceStarted: forceStarted)
    }

    /// `activeSharedSession = nil`: the original encodes the nil optional, and so writes `null`.
    private let noSession = StoredValue.data(Data("null".utf8))

    /// A device on which the user saved "Deep work" (breaks of `breakMinutes`) at 09:00, started a
    /// 30-minute timer session and opened Instagram: the monitor's StrategyTimerActivity shields it
    /// and the ShieldConfiguration extension draws the shield.
    private func deviceInATimerSession(breakMinutes: Int? = nil) throws -> TestDevice {
        let device = try TestDevice(app: .foqos)
        let saved = try device.intent(
            "saveProfile",
            breakMinutes.map { ["name": "Deep work", "apps": [.string(instagram)], "breakMinutes": .int($0)] }
                ?? ["name": "Deep work", "apps": [.string(instagram)]],
            effects: [
                .storeWrite(suite: group, key: "profileSnapshots", value: try stored([profileId: try profile(on: device, breakMinutes: breakMinutes)]))
            ])
        #expect(saved["profileId"]?.stringValue == profileId)
        #expect(saved["activities"] == [], "a profile without a schedule monitors nothing")

        let timed = try stored([profileId: try profile(on: device, breakMinutes: breakMinutes, strategyMinutes: 30)])
        let started = try device.intent(
            "startTimer", ["minutes": 30],
            effects: [
                // onDurationSelected: the timer's length into the profile's strategy data
                .storeWrite(suite: group, key: "profileSnapshots", value: timed),
                // createSession → SharedData.createActiveSharedSession
                .storeWrite(suite: group, key: "activeScheduleSession", value: try stored(session())),
                // startStrategyTimerActivity: 00:00:00 to 09:30:00, so already in its interval
                .activityStart(activity: strategyActivity),
                .monitorIntervalStart(activity: strategyActivity),
                // handleSessionStarted: BlockedProfiles.updateSnapshot again
                .storeWrite(suite: group, key: "profileSnapshots", value: timed),
                // the monitor: StrategyTimerActivity.start → AppBlockerUtil.activateRestrictions
                .shieldApply(store: store, applications: [instagram], categories: .none),
            ])
        #expect(started["activeProfileId"]?.stringValue == profileId)
        #expect(started["shielded"] == true)

        try device.send(
            .appOpen(app: instagram),
            effects: [
                .appState(locked: false, foregroundApp: instagram, shieldShown: false),
                .shieldShown(app: instagram, configuration: lockedIn, source: .extension),
                .appState(locked: false, foregroundApp: instagram, shieldShown: true),
            ])
        return device
    }

    @Test func aTimerSessionShieldsTheProfilesAppsUntilItsIntervalEnds() throws {
        let device = try deviceInATimerSession()
        // Foqos's shield has one button; its ShieldAction closes the app.
        try device.send(
            .shieldPress(app: instagram, button: .primary),
            effects: [
                .shieldAction(app: instagram, button: .primary, response: .close),
                .appState(locked: false, foregroundApp: nil, shieldShown: false),
            ])
        try device.advance(minutes: 29, effects: [])
        // 09:30: StrategyTimerActivity.stop lifts the shield and ends the session.
        try device.advance(
            minutes: 1,
            effects: [
                .monitorIntervalEnd(activity: strategyActivity),
                .shieldClear(store: store),
                .storeWrite(
                    suite: group, key: "completedScheduleSessions",
                    value: try stored([session(end: "2026-01-05T09:30:00Z")])),
                .storeWrite(suite: group, key: "activeScheduleSession", value: noSession),
            ])
        try device.send(
            .appOpen(app: instagram), effects: [.appState(locked: false, foregroundApp: instagram, shieldShown: false)])
        let status = try device.appState(as: FoqosStatus.self)
        #expect(status.activeProfileId == nil && status.completedSessions == 1 && !status.shielded)
    }

    @Test func aBreakLiftsTheShieldAndItsEndPutsItBack() throws {
        let device = try deviceInATimerSession(breakMinutes: 15)
        let onBreak = try device.intent(
            "toggleBreak",
            effects: [
                .storeWrite(
                    suite: group, key: "activeScheduleSession",
                    value: try stored(session(breakStart: "2026-01-05T09:00:00Z"))),
                .shieldClear(store: store),
                .appState(locked: false, foregroundApp: instagram, shieldShown: false),
                .activityStart(activity: breakActivity),
                .monitorIntervalStart(activity: breakActivity),
            ])
        #expect(onBreak["breakActive"] == true)
        try device.advance(minutes: 14, effects: [])
        // 09:15: BreakTimerActivity.stop shields Instagram again, in front of the user.
        try device.advance(
            minutes: 1,
            effects: [
                .monitorIntervalEnd(activity: breakActivity),
                .shieldApply(store: store, applications: [instagram], categories: .none),
                // Drawn as the shield write lands, before the monitor's next line.
                .shieldShown(app: instagram, configuration: lockedIn, source: .extension),
                .appState(locked: false, foregroundApp: instagram, shieldShown: true),
                .storeWrite(
                    suite: group, key: "activeScheduleSession",
                    value: try stored(session(breakStart: "2026-01-05T09:00:00Z", breakEnd: "2026-01-05T09:15:00Z"))),
            ])
        // One break per session (allowMultipleBreaks off): a second one is not available.
        try device.intent("toggleBreak", effects: [])
    }

    @Test func stoppingTheSessionLiftsTheShieldAndStopsItsTimer() throws {
        let device = try deviceInATimerSession()
        try device.advance(minutes: 10, effects: [])
        let stopped = try device.intent(
            "stopSession",
            effects: [
                // BlockedProfileSession.endSession: the end time into the shared session, then flushed
                .storeWrite(
                    suite: group, key: "activeScheduleSession", value: try stored(session(end: "2026-01-05T09:10:00Z"))),
                .storeWrite(suite: group, key: "activeScheduleSession", value: noSession),
                .shieldClear(store: store),
                .appState(locked: false, foregroundApp: instagram, shieldShown: false),
                // handleSessionEnded → removeAllStrategyTimerActivities; the monitor's
                // StrategyTimerActivity.stop finds no session and does nothing
                .activityStop(activity: strategyActivity),
                .monitorIntervalEnd(activity: strategyActivity),
            ])
        #expect(stopped["activeProfileId"] == nil && stopped["shielded"] == false && stopped["activities"] == [])
    }

    /// The schedule (Mondays 10:00–11:00) is a repeating activity named after the profile; the
    /// monitor's ScheduleTimerActivity makes the session and shields at its start, and ends both
    /// at its end.
    @Test func aScheduleBlocksOnItsDaysFromItsStartToItsEnd() throws {
        let device = try TestDevice(app: .foqos)
        let schedule = BlockedProfileSchedule(
            days: [.monday], startHour: 10, startMinute: 0, endHour: 11, endMinute: 0,
            updatedAt: date("2026-01-05T09:00:00Z"))
        let saved = try device.intent(
            "saveProfile",
            [
                "name": "Deep work", "apps": [.string(instagram)],
                "schedule": ["days": [2], "startHour": 10, "startMinute": 0, "endHour": 11, "endMinute": 0],
            ],
            effects: [
                .storeWrite(suite: group, key: "profileSnapshots", value: try stored([profileId: try profile(on: device, schedule: schedule)])),
                .activityStart(activity: profileId),
            ])
        #expect(saved["activities"]?.arrayValue?.compactMap(\.stringValue) == [profileId])
        let scheduled = session(tag: profileId, start: "2026-01-05T10:00:00Z", forceStarted: true)
        try device.advance(
            minutes: 60,
            effects: [
                .monitorIntervalStart(activity: profileId),
                .storeWrite(suite: group, key: "activeScheduleSession", value: try stored(scheduled)),
                .shieldApply(store: store, applications: [instagram], categories: .none),
            ])
        try device.send(
            .appOpen(app: instagram),
            effects: [
                .appState(locked: false, foregroundApp: instagram, shieldShown: false),
                .shieldShown(app: instagram, configuration: lockedIn, source: .extension),
                .appState(locked: false, foregroundApp: instagram, shieldShown: true),
            ])
        try device.advance(
            minutes: 60,
            effects: [
                .monitorIntervalEnd(activity: profileId),
                .shieldClear(store: store),
                .appState(locked: false, foregroundApp: instagram, shieldShown: false),
                .storeWrite(
                    suite: group, key: "completedScheduleSessions",
                    value: try stored([session(tag: profileId, start: "2026-01-05T10:00:00Z", end: "2026-01-05T11:00:00Z", forceStarted: true)])),
                .storeWrite(suite: group, key: "activeScheduleSession", value: noSession),
            ])
        // Tuesday 10:00: the interval starts again, but the schedule is for Mondays only.
        try device.advance(
            seconds: 23 * 3600,
            effects: [.monitorIntervalStart(activity: profileId)])
        #expect(try device.shields().effective.applications.isEmpty)
        // Saving the profile without its schedule switches the schedule off: the activity stops.
        device.exhaustivity = .kinds(["activity.start", "activity.stop", "monitor.intervalEnd", "shield.apply", "shield.clear"])
        let unscheduled = try device.intent(
            "saveProfile", ["profileId": .string(profileId), "name": "Deep work", "apps": [.string(instagram)]],
            effects: [.activityStop(activity: profileId), .monitorIntervalEnd(activity: profileId)])
        #expect(unscheduled["activities"]?.arrayValue?.isEmpty == true)
    }

    /// ScheduleTimerActivity ignores a schedule changed in the last 15 minutes
    /// (`olderThan15Minutes`): saved at 09:50 for 10:00, it does not block today.
    @Test func aScheduleSavedLessThanFifteenMinutesBeforeItsStartWaitsForTheNextDay() throws {
        let device = try TestDevice(app: .foqos, start: "2026-01-05T09:50:00Z")
        device.exhaustivity = .off
        try device.intent(
            "saveProfile",
            [
                "name": "Deep work", "apps": [.string(instagram)],
                "schedule": ["days": [2, 3], "startHour": 10, "startMinute": 0, "endHour": 11, "endMinute": 0],
            ])
        device.exhaustivity = .observable
        try device.advance(minutes: 10, effects: [.monitorIntervalStart(activity: profileId)])
        #expect(try device.value(forKey: "activeScheduleSession", suite: group) == nil)
        device.exhaustivity = .kinds(["monitor.intervalStart", "shield.apply"])
        try device.advance(
            seconds: 24 * 3600,
            effects: [
                .monitorIntervalStart(activity: profileId),
                .shieldApply(store: store, applications: [instagram], categories: .none),
            ])
    }

    /// "Deep work" with these categories, websites or allow mode, saved at 09:00 and a 30-minute
    /// timer session started: the monitor's StrategyTimerActivity shields, one setting per write
    /// (`shieldWrites`, in the original's order).
    private func deviceInATimerSession(
        categories: [String] = [], webDomains: [String] = [], allowMode: Bool = false, shieldWrites: [Effect]
    ) throws -> TestDevice {
        let device = try TestDevice(app: .foqos)
        var args: [String: JSONValue] = ["name": "Deep work", "apps": [.string(instagram)]]
        if !categories.isEmpty { args["categories"] = .array(categories.map(JSONValue.string)) }
        if !webDomains.isEmpty { args["webDomains"] = .array(webDomains.map(JSONValue.string)) }
        if allowMode { args["allowMode"] = true }
        let saved = try profile(on: device, categories: Set(categories), webDomains: Set(webDomains), allowMode: allowMode)
        try device.intent(
            "saveProfile", .object(args),
            effects: [.storeWrite(suite: group, key: "profileSnapshots", value: try stored([profileId: saved]))])
        var timed = saved
        timed.strategyData = StrategyTimerData.toData(from: StrategyTimerData(durationInMinutes: 30, hideStopButton: false))
        try device.intent(
            "startTimer", ["minutes": 30],
            effects: [
                .storeWrite(suite: group, key: "profileSnapshots", value: try stored([profileId: timed])),
                .storeWrite(suite: group, key: "activeScheduleSession", value: try stored(session())),
                .activityStart(activity: strategyActivity),
                .monitorIntervalStart(activity: strategyActivity),
                .storeWrite(suite: group, key: "profileSnapshots", value: try stored([profileId: timed])),
            ] + shieldWrites)
        return device
    }

    /// Stop at 09:00, before the shield is lifted: the end time into the shared session, then
    /// the session flushed.
    private func sessionEnded() throws -> [Effect] {
        [
            .storeWrite(suite: group, key: "activeScheduleSession", value: try stored(session(end: "2026-01-05T09:00:00Z"))),
            .storeWrite(suite: group, key: "activeScheduleSession", value: noSession),
        ]
    }

    /// A website picked with the apps is shielded with them (`web:<domain>` is the website open
    /// in Safari, the wire's `web.open domain=reddit.com`): AppBlockerUtil writes
    /// `shield.applications`, then `shield.webDomains`, each its own write as on iOS; the
    /// ShieldConfiguration extension draws the website's shield (`configuration(shielding:
    /// WebDomain)`) and the ShieldAction extension closes it (`handle(action:for: WebDomainToken)`).
    /// Stop lifts one setting after the other.
    @Test func aProfileWithWebsitesShieldsThemInSafari() throws {
        let device = try deviceInATimerSession(
            webDomains: [reddit],
            shieldWrites: [
                // store.shield.applications = applicationTokens
                .shieldApply(store: store, applications: [instagram], categories: .none),
                // store.shield.webDomains = webTokens
                .shieldApply(store: store, applications: [instagram], categories: .none, webDomains: [reddit]),
            ])
        let website = "web:\(reddit)"
        let beKind = funBlock("🫶", "Be kind to you", "No shame. Just a gentle nudge back to what matters.", "Got it")
        try device.send(
            .appOpen(app: website),
            effects: [
                .appState(locked: false, foregroundApp: website, shieldShown: false),
                .shieldShown(app: website, configuration: beKind, source: .extension),
                .appState(locked: false, foregroundApp: website, shieldShown: true),
            ])
        try device.send(
            .shieldPress(app: website, button: .primary),
            effects: [
                .shieldAction(app: website, button: .primary, response: .close),
                .appState(locked: false, foregroundApp: nil, shieldShown: false),
            ])
        try device.intent(
            "stopSession",
            effects: try sessionEnded() + [
                // store.shield.applications = nil: the website stays shielded until …
                .shieldApply(store: store, applications: [], categories: .none, webDomains: [reddit]),
                // … store.shield.webDomains = nil
                .shieldClear(store: store),
                .activityStop(activity: strategyActivity),
                .monitorIntervalEnd(activity: strategyActivity),
            ])
        try device.send(
            .appOpen(app: website), effects: [.appState(locked: false, foregroundApp: website, shieldShown: false)])
    }

    /// A category picked with the apps is a setting of its own too: `shield.applicationCategories
    /// = .specific(categoryTokens, except: [])` after `shield.applications`. YouTube
    /// (entertainment) is shielded through its category (`configuration(shielding:in:)`), and a
    /// press on that shield reaches `handle(action:for: ActivityCategoryToken)`, which closes it.
    @Test func aProfileWithACategoryShieldsItsAppsThroughIt() throws {
        let entertainment = CategoryPolicy.specific(["entertainment"], except: [])
        let device = try deviceInATimerSession(
            categories: ["entertainment"],
            shieldWrites: [
                .shieldApply(store: store, applications: [instagram], categories: .none),
                .shieldApply(store: store, applications: [instagram], categories: entertainment),
            ])
        let protectedZone = funBlock("🛡️", "Protected zone", "We’re keeping your attention where you wanted it.", "Got it")
        try device.send(
            .appOpen(app: youTube),
            effects: [
                .appState(locked: false, foregroundApp: youTube, shieldShown: false),
                .shieldShown(app: youTube, configuration: protectedZone, source: .extension),
                .appState(locked: false, foregroundApp: youTube, shieldShown: true),
            ])
        try device.send(
            .shieldPress(app: youTube, button: .primary),
            effects: [
                .shieldAction(app: youTube, button: .primary, response: .close),
                .appState(locked: false, foregroundApp: nil, shieldShown: false),
            ])
        try device.intent(
            "stopSession",
            effects: try sessionEnded() + [
                .shieldApply(store: store, applications: [], categories: entertainment),
                .shieldClear(store: store),
                .activityStop(activity: strategyActivity),
                .monitorIntervalEnd(activity: strategyActivity),
            ])
    }

    /// Allow mode writes one setting, `shield.applicationCategories = .all(except:
    /// applicationTokens)`: every app but the profile's is shielded.
    @Test func allowModeShieldsEveryAppButTheProfiles() throws {
        let device = try deviceInATimerSession(
            allowMode: true,
            shieldWrites: [.shieldApply(store: store, applications: [], categories: .all(except: [instagram]))])
        device.exhaustivity = .kinds(["shield.shown"])
        try device.send(.appOpen(app: instagram), effects: [])
        try device.send(
            .appOpen(app: youTube),
            effects: [.shieldShown(app: youTube, configuration: funBlock("🛡️", "Protected zone", "We’re keeping your attention where you wanted it.", "Got it"), source: .extension)])
    }
}
