import DeviceTesting
import Foundation
import Testing

@testable import Clarity
@testable import DeviceActors
@_spi(Host) @testable import SimulatediOS

/// Exhaustive: every effect of reaching layer 2 while Instagram is open, in order, with its actor.
@Suite struct ClarityFrictionEffectsTests {
    @Test func layerTwoEffectsInOrder() throws {
        let device = try makeClarityDevice()
        _ = try device.perform(intent: "selectApps", arguments: JSONArguments(["apps": [.string(instagram)]]))
        _ = try device.apply(.appOpen(app: instagram))
        _ = try device.advance(seconds: 300)
        let outcome = try device.advance(seconds: 300)
        let lines = outcome.effects.map { "\($0.entry.actor) \($0.entry.payload.kind)" }
        #expect(
            lines == [
                "clock clock.advance",
                "deviceActivity monitor.threshold",
                "clarity.monitor extension.launch",
                "clarity.monitor extension.callback",
                "clarity.monitor store.write",
                "clarity.monitor store.read",
                "clarity.monitor store.read",
                "clarity.monitor shield.apply",
                "clarity.monitor extension.terminate",
                "clarity.shieldConfiguration extension.launch",
                "clarity.shieldConfiguration extension.callback",
                "clarity.shieldConfiguration store.read",
                "clarity.shieldConfiguration store.read",
                "springBoard shield.shown",
                "springBoard app.state",
            ])
        #expect(
            outcome.effects[4].entry.payload
                == .storeWrite(suite: "group.com.clarity.focus", key: "frictionLevel", value: .int(2)))
        #expect(
            outcome.effects[6].entry.payload
                == .storeRead(suite: "group.com.clarity.focus", key: "prosocialEnabled", bytes: 1))
        #expect(
            outcome.effects[7].entry.payload
                == .shieldApply(store: "friction", applications: [instagram], categories: .none))
        #expect(outcome.effects.allSatisfy { $0.entry.time.seconds == ($0.entry.payload.kind == "clock.advance" ? 300 : 600) })
    }
}
