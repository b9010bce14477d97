import ControlProtocol
import DeviceActors
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import ScrollKitty

/// The seed's likely mistakes, switched on one at a time by `config.app.variant` (APPS.md 1.5),
/// each showing the Critical Issue it causes; the correct port does not.
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
                .storeWrite(suite: group, key: "appHealthData", value: healthData([(App.instagram, 90, 100)])),
                .storeWrite(suite: group, key: "cooldowns", value: .dictionary([instagramToken: .double(900)])),
                .shieldClear(store: "scrollkitty"),
                .notification(title: "Lost 10 HP", body: "Instagram: 90/100 HP | Total: 90 HP. Unlocked for 15 minutes."),
                .shieldAction(app: App.instagram, button: .secondary, response: .none),
                .appState(locked: false, foregroundApp: App.instagram, shieldShown: false),
            ])
        try device.advance(minutes: 15, effects: [.timerLost(label: "reshield", reason: "suspended")])
        try device.advance(minutes: 60)
        let state = try device.appState(as: ScrollKittyState.self)
        #expect(state.apps[0].shielded == false, "the shield never returns")
        #expect(state.apps[0].cooldownEndsAt == "2026-01-05T09:15:00Z", "the cooldown never ends")
    }

    @Test func anUnknownVariantIsRefusedByName() throws {
        var config = DeviceConfig()
        config.app = ["variant": .string("sloppy")]
        #expect(throws: DeviceError.self) { try TestDevice(app: "scrollkitty", config: config) }
        #expect(throws: DeviceError.self) {
            try ScrollKittySettings.decode(["variant": .string("monitorReapplies")])
        }
        #expect(try ScrollKittySettings.decode([:]).variant == .correct)
        #expect(try ScrollKittySettings.decode(["variant": .string("extensionTimer")]).variant == .extensionTimer)
    }
}
