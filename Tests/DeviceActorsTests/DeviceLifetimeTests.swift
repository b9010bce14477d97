import ExtensionSandbox
import DeviceTesting
import Foundation
import Testing

@testable import Clarity
@testable import DeviceActors
@_spi(Host) @testable import SimulatediOS

/// A device that is let go of is freed, world and all: a daemon that creates and removes devices
/// all day must not grow.
@Suite struct DeviceLifetimeTests {
    @Test func aReleasedDeviceIsFreedWithItsWorld() throws {
        weak var device: SimulatedDevice?
        weak var world: World?
        try {
            let made = try makeClarityDevice()
            _ = try made.perform(intent: "selectApps", arguments: JSONArguments(["apps": [.string(instagram)]]))
            _ = try made.apply(.appOpen(app: instagram))
            _ = try made.advance(seconds: 700)
            _ = try made.shieldConfig(app: instagram)
            device = made
            world = made.world
        }()
        #expect(device == nil)
        #expect(world == nil)
    }
}
