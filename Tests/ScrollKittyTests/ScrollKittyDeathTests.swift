import ControlProtocol
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import ScrollKitty

/// HP running out (docs/apps/scrollkitty.md, "Rules"): an app at 0 HP loses its bypass; the total
/// at 0 kills the cat.
@Suite struct ScrollKittyDeathTests {
    @Test func anAppAtZeroHPHasNoContinue() throws {
        let device = try TestDevice.scrollKitty(selecting: [App.instagram, App.tiktok], shares: [50, 50])
        try device.writeHealth([(App.instagram, 0, 50), (App.tiktok, 50, 50)])
        try device.openShielded(App.instagram, shield: aliveShield("Instagram: 0/50 HP | Total: 50 HP", canContinue: false))
        try device.send(.appClose(app: App.instagram), effects: [.appState(locked: false, foregroundApp: nil, shieldShown: false)])
        try device.openShielded(App.tiktok, shield: aliveShield("TikTok: 50/50 HP | Total: 50 HP"))
    }

    /// Ten bypasses of the only app, each after the last cooldown ended: the tenth kills the cat.
    @Test func theTenthBypassKillsTheCatAndHardLocksEveryApp() throws {
        let device = try TestDevice.scrollKitty(selecting: [App.instagram], shares: [100])
        try device.intent(
            "setShieldFrequency", ["minutes": 10],
            effects: [.storeWrite(suite: group, key: "shieldFrequencyMinutes", value: .int(10))])
        let token = tokenId(of: App.instagram)
        try device.openShielded(App.instagram, shield: aliveShield("Instagram: 100/100 HP | Total: 100 HP"))
        var ledger: [(String, Int, Double, Double)] = []
        for bypass in 1...9 {
            let hp = 100 - 10 * bypass
            let at = Double(600 * (bypass - 1))
            ledger.append((App.instagram, 10, at, at + 600))
            try device.send(
                .shieldPress(app: App.instagram, button: .secondary),
                effects: [
                    ledgerWrite(ledger),
                    healthWrite([(App.instagram, hp, 100)]),
                    .activityStart(activity: "scrollkitty_cooldown_\(token)"),
                    .shieldClear(store: "scrollkitty"),
                    .appState(locked: false, foregroundApp: App.instagram, shieldShown: false),
                    .notification(
                        title: "Lost 10 HP", body: "Instagram: \(hp)/100 HP | Total: \(hp) HP. Unlocked for 10 minutes."),
                    .shieldAction(app: App.instagram, button: .secondary, response: .none),
                ])
            try device.advance(
                minutes: 10,
                effects: cooldownEndEffects(
                    App.instagram, shielding: [App.instagram], shield: aliveShield("Instagram: \(hp)/100 HP | Total: \(hp) HP")))
        }
        try device.send(
            .shieldPress(app: App.instagram, button: .secondary),
            effects: [
                ledgerWrite(ledger + [(App.instagram, 10, 5400, 5400)]),
                healthWrite([(App.instagram, 0, 100)]),
                .shieldApply(store: "hardLock", applications: [App.instagram], categories: .none),
                .notification(title: "Lost 10 HP", body: "Scroll Kitty has died. All your apps are locked."),
                .shieldAction(app: App.instagram, button: .secondary, response: .defer),
                .shieldShown(app: App.instagram, configuration: deadShield, source: .extension),
                .appState(locked: false, foregroundApp: App.instagram, shieldShown: true),
            ])
        let state = try device.appState(as: ScrollKittyState.self)
        #expect(state.isDead)
        #expect(state.totalHP == 0)
        #expect(state.apps[0].shielded)
    }

    /// Death shields every selected app at once, one in cooldown too, and ends its cooldown:
    /// no `Shield Returning` follows.
    @Test func deathHardLocksAnAppInCooldownToo() throws {
        let device = try TestDevice.scrollKitty(selecting: [App.instagram, App.tiktok], shares: [50, 50])
        try device.writeHealth([(App.instagram, 10, 50), (App.tiktok, 10, 50)])
        let tiktokCooldown = "scrollkitty_cooldown_\(tokenId(of: App.tiktok))"
        try device.openShielded(App.tiktok, shield: aliveShield("TikTok: 10/50 HP | Total: 20 HP"))
        try device.send(
            .shieldPress(app: App.tiktok, button: .secondary),
            effects: [
                ledgerWrite([(App.tiktok, 10, 0, 900)]),
                healthWrite([(App.instagram, 10, 50), (App.tiktok, 0, 50)]),
                .activityStart(activity: tiktokCooldown),
                .shieldApply(store: "scrollkitty", applications: [App.instagram], categories: .none),
                .appState(locked: false, foregroundApp: App.tiktok, shieldShown: false),
                .notification(title: "Lost 10 HP", body: "TikTok: 0/50 HP | Total: 10 HP. Unlocked for 15 minutes."),
                .shieldAction(app: App.tiktok, button: .secondary, response: .none),
            ])
        try device.send(.appClose(app: App.tiktok), effects: [.appState(locked: false, foregroundApp: nil, shieldShown: false)])
        try device.openShielded(App.instagram, shield: aliveShield("Instagram: 10/50 HP | Total: 10 HP"))
        let both = [App.instagram, App.tiktok]
        try device.send(
            .shieldPress(app: App.instagram, button: .secondary),
            effects: [
                ledgerWrite([(App.tiktok, 10, 0, 900), (App.instagram, 10, 0, 0)]),
                healthWrite([(App.instagram, 0, 50), (App.tiktok, 0, 50)]),
                .activityStop(activity: tiktokCooldown),
                .shieldApply(store: "scrollkitty", applications: both, categories: .none),
                .shieldApply(store: "hardLock", applications: both, categories: .none),
                .notification(title: "Lost 10 HP", body: "Scroll Kitty has died. All your apps are locked."),
                .shieldAction(app: App.instagram, button: .secondary, response: .defer),
                .shieldShown(app: App.instagram, configuration: deadShield, source: .extension),
                .appState(locked: false, foregroundApp: App.instagram, shieldShown: true),
            ])
        let state = try device.appState(as: ScrollKittyState.self)
        #expect(state.apps.map(\.shielded) == [true, true])
        #expect(state.apps.map(\.cooldownEndsAt) == [nil, nil])
        try device.advance(minutes: 30, effects: [])
    }
}
