import ControlProtocol
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import ScrollKitty

/// Two bypasses at once cost 20 HP, never 10 (docs/apps/scrollkitty.md, "HP atomicity"). A double
/// tap on Continue (`shield.press` with `taps` 2, docs/platform.md, "Shield flow") delivers two
/// ShieldAction callbacks to one process at once; they interleave at every platform call, and the
/// in-process bypass lock keeps the second's read of HP after the first's write.
@Suite struct ScrollKittyAtomicityTests {
    private let instagramToken = "Y29tLmJ1cmJuLmluc3RhZ3JhbQ=="

    @Test func aDoubleTapOnContinueCostsTwentyHP() throws {
        let device = try TestDevice.scrollKitty(selecting: [App.instagram, App.tiktok, App.reddit], shares: [34, 33, 33])
        try device.openShielded(App.instagram, shield: aliveShield("Instagram: 34/34 HP | Total: 100 HP"))
        let cooldownActivity = Effect.activityStart(activity: "scrollkitty_cooldown_\(instagramToken)")
        let pressed = Effect.shieldAction(app: App.instagram, button: .secondary, response: .none)
        try device.send(
            .shieldPress(app: App.instagram, button: .secondary, taps: 2),
            effects: [
                ledgerWrite([(App.instagram, 10, 0, 900)]),
                healthWrite([(App.instagram, 24, 34), (App.tiktok, 33, 33), (App.reddit, 33, 33)]), cooldownActivity,
                .shieldApply(store: "scrollkitty", applications: [App.reddit, App.tiktok], categories: .none),
                .appState(locked: false, foregroundApp: App.instagram, shieldShown: false),
                .notification(title: "Lost 10 HP", body: "Instagram: 24/34 HP | Total: 90 HP. Unlocked for 15 minutes."),
                pressed,
                ledgerWrite([(App.instagram, 10, 0, 900), (App.instagram, 10, 0, 900)]),
                healthWrite([(App.instagram, 14, 34), (App.tiktok, 33, 33), (App.reddit, 33, 33)]), cooldownActivity,
                .notification(title: "Lost 10 HP", body: "Instagram: 14/34 HP | Total: 80 HP. Unlocked for 15 minutes."),
                pressed,
            ])
        #expect(try device.hps() == [14, 33, 33])
    }
}
