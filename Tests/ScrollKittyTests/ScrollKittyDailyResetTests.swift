import DeviceActors
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import ScrollKitty

/// `hpDailyReset` (project choice, docs/apps/scrollkitty.md, "Settings"): at local midnight HP
/// returns to the split and a dead cat lives again; without it HP and death persist (the seed names
/// no reset).
@Suite struct ScrollKittyDailyResetTests {
    private func killTheCat(resetting: Bool) throws -> TestDevice {
        var config = DeviceConfig()
        config.app = ["hpDailyReset": .bool(resetting)]
        let device = try TestDevice(app: .scrollKitty, config: config, exhaustivity: .off)
        try device.intent(
            "selectApps", ["apps": [.string(App.instagram)]],
            effects: resetting ? [.activityStart(activity: "scrollkitty_day")] : [])
        try device.intent("setShieldFrequency", ["minutes": 10])
        try device.send(.appOpen(app: App.instagram))
        for _ in 1...9 {
            try device.send(.shieldPress(app: App.instagram, button: .secondary))
            try device.advance(minutes: 10)
        }
        try device.send(
            .shieldPress(app: App.instagram, button: .secondary),
            effects: [.shieldApply(store: "hardLock", applications: [App.instagram], categories: .none)])
        #expect(try device.appState(as: ScrollKittyState.self).isDead)
        return device
    }

    @Test func theCatLivesAgainAtMidnight() throws {
        let device = try killTheCat(resetting: true)
        try device.advance(minutes: 13 * 60 + 29)
        #expect(try device.appState(as: ScrollKittyState.self).isDead, "still the same day at 23:59")
        try device.advance(
            minutes: 1,
            effects: [
                .monitorIntervalStart(activity: "scrollkitty_day"),
                .shieldClear(store: "hardLock"),
            ])
        let state = try device.appState(as: ScrollKittyState.self)
        #expect(state.isDead == false)
        #expect(state.apps.map(\.hp) == [100])
        #expect(state.apps[0].shielded, "the focus window's shield stays, with its Continue back")
        try device.send(.appClose(app: App.instagram))
        try device.openShielded(App.instagram, shield: aliveShield("Instagram: 100/100 HP | Total: 100 HP"))
    }

    @Test func withoutItDeathOutlastsMidnight() throws {
        let device = try killTheCat(resetting: false)
        try device.advance(minutes: 24 * 60)
        let state = try device.appState(as: ScrollKittyState.self)
        #expect(state.isDead)
        #expect(state.totalHP == 0)
    }
}
