import ControlProtocol
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import SpendLess

/// `intervention.finish` `access`: the triggering app unshielded for 10 minutes (seed 002,
/// `ShieldSessionManager`), then shielded again by DeviceActivity waking the monitor — with
/// SpendLess in the background, nothing of it running.
@Suite struct SpendLessAccessSessionTests {
    private let accessEnd: [Effect] = [
        .monitorIntervalStart(activity: "spendless_access"),
        .storeRemove(suite: group, key: "accessSession"),
        .activityStop(activity: "spendless_access"),
        .shieldApply(store: "shopping", applications: [Shop.amazon, Shop.shein], categories: .none),
    ]
    /// The session's end as the clock wakes the monitor: its own `stopMonitoring` delivers
    /// `intervalDidEnd` at once, beside the callback's next lines (docs/platform.md, "The system
    /// reacts to writes when they land"), before the shield it writes next.
    private var accessEndOnTime: [Effect] {
        [
            .monitorIntervalStart(activity: "spendless_access"),
            .storeRemove(suite: group, key: "accessSession"),
            .activityStop(activity: "spendless_access"),
            .monitorIntervalEnd(activity: "spendless_access"),
            .shieldApply(store: "shopping", applications: [Shop.amazon, Shop.shein], categories: .none),
        ]
    }

    /// `intervention.finish access` for `app` (Amazon, leaving SHEIN shielded, by default): the
    /// session written, its end monitored, `shopping` rewritten to `applications` and `categories`.
    private func finishWithAccess(
        _ device: TestDevice, app: String = Shop.amazon, endsAt: Double, applications: [String] = [Shop.shein],
        categories: CategoryPolicy = .none
    ) throws {
        try device.intent(
            "intervention.finish", ["outcome": "access"],
            effects: [
                finished("access"),
                .storeWrite(suite: group, key: "accessSession", value: .dictionary(["app": .string(app), "endsAt": .double(endsAt)])),
                .activityStart(activity: "spendless_access"),
                .shieldApply(store: "shopping", applications: applications, categories: categories),
            ])
    }

    @Test func accessLiftsTheShieldForTenMinutesThenItReturnsWhileSpendLessIsClosed() throws {
        let device = try TestDevice.spendLess()
        try device.triggerIntervention(from: Shop.amazon)
        try device.advance(seconds: 30.5)
        try finishWithAccess(device, endsAt: 631)
        var state = try device.spendLessState()
        #expect(state.intervention == nil)
        #expect(state.accessSession == .init(app: Shop.amazon, endsAt: "2026-01-05T09:10:31Z"))
        #expect(state.resistedCount == 0)
        try device.send(.appClose(app: spendLessApp), effects: [home])
        try device.send(.appOpen(app: Shop.amazon), effects: [.appState(locked: false, foregroundApp: Shop.amazon, shieldShown: false)])
        try device.advance(seconds: 600)
        try device.advance(
            seconds: 0.5,
            effects: accessEndOnTime + [
                .shieldShown(app: Shop.amazon, configuration: pauseShield("Amazon"), source: .extension),
                .appState(locked: false, foregroundApp: Shop.amazon, shieldShown: true),
            ])
        state = try device.spendLessState()
        #expect(state.accessSession == nil)
        #expect(try device.activities().isEmpty)
    }

    /// A session ending on a locked phone: DeviceActivity holds the callbacks until the unlock
    /// (docs/decisions.md), so the shield is back before the user can reach the app.
    @Test func aSessionEndingWhileLockedEndsAtTheUnlock() throws {
        let device = try TestDevice.spendLess()
        try device.triggerIntervention(from: Shop.amazon)
        try finishWithAccess(device, endsAt: 600)
        try device.send(.lock, effects: [.appState(locked: true, foregroundApp: spendLessApp, shieldShown: false)])
        try device.advance(minutes: 30)
        try device.send(
            .unlock,
            effects: [.appState(locked: false, foregroundApp: spendLessApp, shieldShown: false)] + accessEnd + [
                .monitorIntervalEnd(activity: "spendless_access")
            ])
        #expect(try device.shields().effective.applications == [Shop.amazon, Shop.shein])
    }

    /// A second `access` replaces the running session: the earlier app is shielded again at once
    /// and only the new session's end wakes the monitor.
    @Test func aSecondAccessReplacesTheSession() throws {
        let device = try TestDevice.spendLess()
        try device.triggerIntervention(from: Shop.amazon)
        try finishWithAccess(device, endsAt: 600)
        try device.advance(minutes: 2)
        try device.triggerIntervention(from: Shop.shein)
        try finishWithAccess(device, app: Shop.shein, endsAt: 720, applications: [Shop.amazon])
        try device.advance(minutes: 9)
        #expect(try device.spendLessState().accessSession == .init(app: Shop.shein, endsAt: "2026-01-05T09:12:00Z"))
        try device.advance(minutes: 1, effects: accessEndOnTime)
    }

    /// Shopping apps shielded through their category: the session's app is excepted from it.
    @Test func anAppShieldedByItsCategoryIsExceptedDuringItsSession() throws {
        let device = try TestDevice(app: .spendLess)
        let shopping = CategoryPolicy.specific(["shopping"], except: [])
        try device.intent(
            "selectApps", ["apps": [.string(Shop.amazon)], "categories": ["shopping"]],
            effects: [
                .storeWrite(suite: group, key: "selectedApps", value: .array([.string(Shop.amazon)])),
                .storeWrite(suite: group, key: "selectedCategories", value: .array([.string("shopping")])),
                .shieldApply(store: "shopping", applications: [Shop.amazon], categories: shopping),
            ])
        try device.triggerIntervention(from: Shop.shein)
        try finishWithAccess(
            device, app: Shop.shein, endsAt: 600, applications: [Shop.amazon],
            categories: .specific(["shopping"], except: [Shop.shein]))
        try device.send(.appOpen(app: Shop.shein), effects: [.appState(locked: false, foregroundApp: Shop.shein, shieldShown: false)])
        try device.advance(
            minutes: 10,
            effects: [
                .monitorIntervalStart(activity: "spendless_access"),
                .storeRemove(suite: group, key: "accessSession"),
                .activityStop(activity: "spendless_access"),
                .monitorIntervalEnd(activity: "spendless_access"),
                .shieldApply(store: "shopping", applications: [Shop.amazon], categories: shopping),
                .shieldShown(app: Shop.shein, configuration: pauseShield("SHEIN"), source: .extension),
                .appState(locked: false, foregroundApp: Shop.shein, shieldShown: true),
            ])
    }
}
