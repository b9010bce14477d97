import ControlProtocol
import DeviceActors
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import ScrollKitty

/// The seed's likely mistakes, switched on one at a time by `config.app.variant`
/// (docs/apps/scrollkitty.md, "Variants"), each showing the Critical Issue it causes; the correct
/// port does not.
@Suite struct ScrollKittyVariantTests {
    private let instagramToken = "Y29tLmJ1cmJuLmluc3RhZ3JhbQ=="

    /// `extensionTimer`: the re-shield timer is kept in ShieldAction, which is idle (suspended)
    /// when it comes due: the timer is lost and the shield never returns (Critical Issue 2).
    @Test func aReshieldTimerKeptInShieldActionIsLostAndTheShieldNeverReturns() throws {
        var config = DeviceConfig()
        config.app = ["variant": .string("extensionTimer")]
        let device = try TestDevice.scrollKitty(selecting: [App.instagram], shares: [100], config: config)
        try device.openShielded(App.instagram, shield: aliveShield("Instagram: 100/100 HP | Total: 100 HP"))
        try device.send(
            .shieldPress(app: App.instagram, button: .secondary),
            effects: [
                ledgerWrite([(App.instagram, 10, 0, 900)]),
                healthWrite([(App.instagram, 90, 100)]),
                .shieldClear(store: "scrollkitty"),
                .appState(locked: false, foregroundApp: App.instagram, shieldShown: false),
                .notification(title: "Lost 10 HP", body: "Instagram: 90/100 HP | Total: 90 HP. Unlocked for 15 minutes."),
                .shieldAction(app: App.instagram, button: .secondary, response: .none),
            ])
        try device.advance(minutes: 15, effects: [.timerLost(label: "reshield", reason: "suspended")])
        try device.advance(minutes: 60)
        let state = try device.appState(as: ScrollKittyState.self)
        #expect(state.apps[0].shielded == false, "the shield never returns")
        #expect(state.apps[0].cooldownEndsAt == nil, "although the cooldown is over")
    }

    /// `noNotificationAuth`: the main app never asks, so neither `Lost 10 HP` nor `Shield
    /// Returning` is shown; each is traced `notification.suppressed` (Critical Issue 3).
    @Test func withoutAskingForAuthorizationNoNotificationIsShown() throws {
        var config = DeviceConfig()
        config.app = ["variant": .string("noNotificationAuth")]
        let device = try TestDevice.scrollKitty(selecting: [App.instagram], shares: [100], config: config)
        #expect(try device.appState(as: ScrollKittyState.self).notificationsAuthorized == false)
        try device.openShielded(App.instagram, shield: aliveShield("Instagram: 100/100 HP | Total: 100 HP"))
        try device.send(
            .shieldPress(app: App.instagram, button: .secondary),
            effects: [
                ledgerWrite([(App.instagram, 10, 0, 900)]),
                healthWrite([(App.instagram, 90, 100)]),
                .activityStart(activity: "scrollkitty_cooldown_\(instagramToken)"),
                .shieldClear(store: "scrollkitty"),
                .appState(locked: false, foregroundApp: App.instagram, shieldShown: false),
                .notificationSuppressed(
                    title: "Lost 10 HP", body: "Instagram: 90/100 HP | Total: 90 HP. Unlocked for 15 minutes.",
                    reason: "notDetermined"),
                .shieldAction(app: App.instagram, button: .secondary, response: .none),
            ])
        let cooldown = "scrollkitty_cooldown_\(instagramToken)"
        try device.advance(
            minutes: 15,
            effects: [
                .monitorIntervalStart(activity: cooldown),
                .activityStop(activity: cooldown),
                .monitorIntervalEnd(activity: cooldown),
                .shieldApply(store: "scrollkitty", applications: [App.instagram], categories: .none),
                .notificationSuppressed(
                    title: "Shield Returning", body: "Instagram's cooldown is over. Scroll Kitty is watching again.",
                    reason: "notDetermined"),
                .shieldShown(app: App.instagram, configuration: aliveShield("Instagram: 90/100 HP | Total: 90 HP"), source: .extension),
                .appState(locked: false, foregroundApp: App.instagram, shieldShown: true),
            ])
        #expect(try device.notifications().isEmpty)
    }

    /// The correct port asks at launch: the user's answer (`notificationPermission`) decides.
    @Test func theCorrectPortAsksAndADenialSuppressesItsNotifications() throws {
        var config = DeviceConfig()
        config.notificationPermission = .deny
        let device = try TestDevice.scrollKitty(selecting: [App.instagram], shares: [100], config: config)
        #expect(try device.appState(as: ScrollKittyState.self).notificationsAuthorized == false)
        #expect(try device.state().notifications == .denied)
        let allowed = try TestDevice.scrollKitty(selecting: [App.instagram], shares: [100])
        #expect(try allowed.appState(as: ScrollKittyState.self).notificationsAuthorized)
    }

    /// `monitorReapplies`: the cooldown's interval starts at the bypass, and the monitor shields
    /// every selected app when an interval starts: the shield is back at once (Critical Issue 1).
    @Test func theMonitorReapplyingTheShieldKeepsItUpAfterContinue() throws {
        var config = DeviceConfig()
        config.app = ["variant": .string("monitorReapplies")]
        let device = try TestDevice.scrollKitty(selecting: [App.instagram], shares: [100], config: config)
        try device.openShielded(App.instagram, shield: aliveShield("Instagram: 100/100 HP | Total: 100 HP"))
        let cooldown = "scrollkitty_cooldown_\(instagramToken)"
        try device.send(
            .shieldPress(app: App.instagram, button: .secondary),
            effects: [
                ledgerWrite([(App.instagram, 10, 0, 900)]),
                healthWrite([(App.instagram, 90, 100)]),
                .activityStart(activity: cooldown),
                .monitorIntervalStart(activity: cooldown),
                .shieldClear(store: "scrollkitty"),
                .appState(locked: false, foregroundApp: App.instagram, shieldShown: false),
                .shieldApply(store: "scrollkitty", applications: [App.instagram], categories: .none),
                .notification(title: "Lost 10 HP", body: "Instagram: 90/100 HP | Total: 90 HP. Unlocked for 15 minutes."),
                .shieldAction(app: App.instagram, button: .secondary, response: .none),
                .shieldShown(app: App.instagram, configuration: aliveShield("Instagram: 90/100 HP | Total: 90 HP"), source: .extension),
                .appState(locked: false, foregroundApp: App.instagram, shieldShown: true),
            ])
        #expect(try device.state().shieldShown, "lifted when ShieldAction cleared it, drawn again when the monitor re-applied it")
        let state = try device.appState(as: ScrollKittyState.self)
        #expect(state.apps[0].shielded, "the shield persists during the cooldown")
        #expect(state.apps[0].cooldownEndsAt == "2026-01-05T09:15:00Z")
        #expect(state.totalHP == 90, "the user paid for an unlock they did not get")
    }

    /// `readModifyWrite`: two presses at once both read 100 HP and both write 90: one bypass is
    /// free (Critical Issue 4; docs/apps/scrollkitty.md, "HP atomicity", wants 80).
    @Test func aDoubleTapWithoutTheLockLosesAnHPUpdate() throws {
        var config = DeviceConfig()
        config.app = ["variant": .string("readModifyWrite")]
        let device = try TestDevice.scrollKitty(selecting: [App.instagram], shares: [100], config: config)
        try device.openShielded(App.instagram, shield: aliveShield("Instagram: 100/100 HP | Total: 100 HP"))
        let lostUpdate = healthData([(App.instagram, 90, 100)])
        try device.send(
            .shieldPress(app: App.instagram, button: .secondary, taps: 2),
            effects: [
                .storeWrite(suite: group, key: "appHealthData", value: lostUpdate),
                .storeWrite(suite: group, key: "appHealthData", value: lostUpdate),
                ledgerWrite([(App.instagram, 0, 0, 900)]),
                ledgerWrite([(App.instagram, 0, 0, 900)]),
                .activityStart(activity: "scrollkitty_cooldown_\(instagramToken)"),
                .activityStart(activity: "scrollkitty_cooldown_\(instagramToken)"),
                .shieldClear(store: "scrollkitty"),
                .appState(locked: false, foregroundApp: App.instagram, shieldShown: false),
                .notification(title: "Lost 10 HP", body: "Instagram: 90/100 HP | Total: 90 HP. Unlocked for 15 minutes."),
                .notification(title: "Lost 10 HP", body: "Instagram: 90/100 HP | Total: 90 HP. Unlocked for 15 minutes."),
                .shieldAction(app: App.instagram, button: .secondary, response: .none),
                .shieldAction(app: App.instagram, button: .secondary, response: .none),
            ])
        #expect(try device.hps() == [90], "two bypasses, 10 HP paid")
    }

    /// docs/protocol.md, "Per-device config", spells it `config.variant`; `config.app.variant`
    /// (docs/sdk.md) is the same, and wins when both are given.
    @Test func theVariantMayBeGivenAtTheTopLevel() throws {
        var config = DeviceConfig()
        config.variant = "noNotificationAuth"
        let device = try TestDevice(app: .scrollKitty, config: config)
        #expect(try device.appState(as: ScrollKittyState.self).notificationsAuthorized == false)
        config.app = ["variant": .string("correct")]
        let overridden = try TestDevice(app: .scrollKitty, config: config)
        #expect(try overridden.appState(as: ScrollKittyState.self).notificationsAuthorized)
        var unknown = DeviceConfig()
        unknown.variant = "sloppy"
        #expect(throws: DeviceError.invalidArgument(
            field: "config.variant", reason: "one of correct, extensionTimer, noNotificationAuth, monitorReapplies, readModifyWrite")
        ) { try TestDevice(app: .scrollKitty, config: unknown) }
    }

    @Test func anUnknownVariantIsRefusedByName() throws {
        var config = DeviceConfig()
        config.app = ["variant": .string("sloppy")]
        #expect(throws: DeviceError.self) { try TestDevice(app: .scrollKitty, config: config) }
        #expect(throws: DeviceError.self) {
            try ScrollKittySettings.decode(["variant": .string("MonitorReapplies")])
        }
        #expect(try ScrollKittySettings.decode([:]).variant == .correct)
        #expect(try ScrollKittySettings.decode(["variant": .string("extensionTimer")]).variant == .extensionTimer)
    }
}
