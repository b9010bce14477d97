import ControlProtocol
import DeviceTesting
import Foundation
import Testing

@testable import DeviceActors
@testable import ScrollKitty
@_spi(Host) import SimulatediOS

/// BEHAVIOR.md: two bypasses at once cost 20 HP, never 10. The device has no double tap yet
/// (APPS.md 0, `shield.press` `taps`), so two `handle` calls are made on one ShieldAction
/// instance at once, in the device's world: they interleave at every platform call.
@Suite struct ScrollKittyAtomicityTests {
    @Test func twoContinuesAtOnceInOneProcessCostTwentyHP() throws {
        let test = try TestDevice.scrollKitty(selecting: [App.instagram, App.tiktok, App.reddit], shares: [34, 33, 33])
        let device = test.device
        let action = ScrollKittyShieldAction(
            executor: device.platform.world.makeExecutor(label: "scrollkitty.shieldAction"),
            process: ScrollKittyProcess(platform: device.platform))
        let responses = try device.run {
            async let first = action.handle(action: .secondary, for: App.instagram)
            async let second = action.handle(action: .secondary, for: App.instagram)
            return try await [first, second]
        }
        #expect(responses == [.none, .none])
        #expect(try test.hps() == [14, 33, 33])
        let notifications = device.trace.recorder.entries(after: 0).compactMap { entry -> String? in
            guard case .notification(let title, _) = entry.payload else { return nil }
            return title
        }
        #expect(notifications == ["Lost 10 HP", "Lost 10 HP"])
    }
}
