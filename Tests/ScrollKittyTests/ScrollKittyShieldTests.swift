import ControlProtocol
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import ScrollKitty

/// The shield and the bypass (docs/apps/scrollkitty.md, "Shield"): texts, HP, cooldowns re-shielded
/// by DeviceActivity, death and the hard lock.
@Suite struct ScrollKittyShieldTests {
    private let instagramToken = "Y29tLmJ1cmJuLmluc3RhZ3JhbQ=="

    @Test func theShieldShowsTheAppsHPAndTheTotal() throws {
        let device = try TestDevice.scrollKitty(selecting: [App.instagram, App.tiktok, App.reddit], shares: [34, 33, 33])
        try device.openShielded(App.instagram, shield: aliveShield("Instagram: 34/34 HP | Total: 100 HP"))
    }

    @Test func closeClosesTheApp() throws {
        let device = try TestDevice.scrollKitty(selecting: [App.instagram], shares: [100])
        try device.openShielded(App.instagram, shield: aliveShield("Instagram: 100/100 HP | Total: 100 HP"))
        try device.send(
            .shieldPress(app: App.instagram, button: .primary),
            effects: [
                .shieldAction(app: App.instagram, button: .primary, response: .close),
                .appState(locked: false, foregroundApp: nil, shieldShown: false),
            ])
        #expect(try device.hps() == [100])
    }

    @Test func continueCostsTenHPAndUnshieldsUntilTheCooldownEnds() throws {
        let device = try TestDevice.scrollKitty(selecting: [App.instagram, App.tiktok, App.reddit], shares: [34, 33, 33])
        try device.openShielded(App.instagram, shield: aliveShield("Instagram: 34/34 HP | Total: 100 HP"))
        try device.send(
            .shieldPress(app: App.instagram, button: .secondary),
            effects: [
                ledgerWrite([(App.instagram, 10, 0, 900)]),
                healthWrite([(App.instagram, 24, 34), (App.tiktok, 33, 33), (App.reddit, 33, 33)]),
                .activityStart(activity: "scrollkitty_cooldown_\(instagramToken)"),
                .shieldApply(store: "scrollkitty", applications: [App.reddit, App.tiktok], categories: .none),
                .appState(locked: false, foregroundApp: App.instagram, shieldShown: false),
                .notification(title: "Lost 10 HP", body: "Instagram: 24/34 HP | Total: 90 HP. Unlocked for 15 minutes."),
                .shieldAction(app: App.instagram, button: .secondary, response: .none),
            ])
        var state = try device.appState(as: ScrollKittyState.self)
        #expect(state.apps.map(\.hp) == [24, 33, 33])
        #expect(state.totalHP == 90)
        #expect(state.apps[0].shielded == false)
        #expect(state.apps[0].cooldownEndsAt == "2026-01-05T09:15:00Z")
        try device.advance(minutes: 14, effects: [])
        try device.advance(
            minutes: 1,
            effects: cooldownEndEffects(
                App.instagram, shielding: [App.instagram, App.reddit, App.tiktok],
                shield: aliveShield("Instagram: 24/34 HP | Total: 90 HP")))
        state = try device.appState(as: ScrollKittyState.self)
        #expect(state.apps[0].shielded)
        #expect(state.apps[0].cooldownEndsAt == nil)
        #expect(state.totalHP == 90)
    }

    /// Fewer than 10 HP left: the bypass takes what is left and says so.
    @Test func aBypassTakesOnlyWhatIsLeft() throws {
        let device = try TestDevice.scrollKitty(selecting: [App.instagram, App.tiktok], shares: [50, 50])
        try device.writeHealth([(App.instagram, 7, 50), (App.tiktok, 50, 50)])
        try device.openShielded(App.instagram, shield: aliveShield("Instagram: 7/50 HP | Total: 57 HP"))
        try device.send(
            .shieldPress(app: App.instagram, button: .secondary),
            effects: [
                ledgerWrite([(App.instagram, 7, 0, 900)]),
                healthWrite([(App.instagram, 0, 50), (App.tiktok, 50, 50)]),
                .activityStart(activity: "scrollkitty_cooldown_\(instagramToken)"),
                .shieldApply(store: "scrollkitty", applications: [App.tiktok], categories: .none),
                .appState(locked: false, foregroundApp: App.instagram, shieldShown: false),
                .notification(title: "Lost 7 HP", body: "Instagram: 0/50 HP | Total: 50 HP. Unlocked for 15 minutes."),
                .shieldAction(app: App.instagram, button: .secondary, response: .none),
            ])
        #expect(try device.hps() == [0, 50])
    }

    /// A cooldown ending outside the focus window: `Shield Returning`, but no shield until the
    /// window opens again.
    @Test func aCooldownEndingOutsideTheWindowLeavesTheAppUnshielded() throws {
        let device = try TestDevice.scrollKitty(selecting: [App.instagram], shares: [100])
        device.exhaustivity = .kinds(["store.write", "shield.apply", "shield.clear"])
        try device.intent(
            "setFocusWindow", ["startHour": 9, "endHour": 10, "weekdays": [2]],
            effects: [
                .storeWrite(
                    suite: group, key: "focusWindow",
                    value: .dictionary(["startHour": .int(9), "endHour": .int(10), "weekdays": .array([.int(2)])]))
            ])
        try device.intent(
            "setShieldFrequency", ["minutes": 60],
            effects: [.storeWrite(suite: group, key: "shieldFrequencyMinutes", value: .int(60))])
        device.exhaustivity = .observable
        try device.openShielded(App.instagram, shield: aliveShield("Instagram: 100/100 HP | Total: 100 HP"))
        try device.send(
            .shieldPress(app: App.instagram, button: .secondary),
            effects: [
                ledgerWrite([(App.instagram, 10, 0, 3600)]),
                healthWrite([(App.instagram, 90, 100)]),
                .activityStart(activity: "scrollkitty_cooldown_\(instagramToken)"),
                .shieldClear(store: "scrollkitty"),
                .appState(locked: false, foregroundApp: App.instagram, shieldShown: false),
                .notification(title: "Lost 10 HP", body: "Instagram: 90/100 HP | Total: 90 HP. Unlocked for 60 minutes."),
                .shieldAction(app: App.instagram, button: .secondary, response: .none),
            ])
        let cooldown = "scrollkitty_cooldown_\(instagramToken)"
        try device.advance(
            minutes: 60,
            effects: [
                .monitorIntervalStart(activity: cooldown),
                .activityStop(activity: cooldown),
                .monitorIntervalEnd(activity: cooldown),
                .notification(title: "Shield Returning", body: "Instagram's cooldown is over. Scroll Kitty is watching again."),
                .monitorIntervalEnd(activity: "scrollkitty_focus_2"),
            ])
        let state = try device.appState(as: ScrollKittyState.self)
        #expect(state.inFocusWindow == false)
        #expect(state.apps[0].shielded == false)
        #expect(state.apps[0].cooldownEndsAt == nil)
    }
}
