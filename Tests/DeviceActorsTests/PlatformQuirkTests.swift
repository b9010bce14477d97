import DeviceTesting
import Foundation
import Testing

@testable import Clarity
@testable import DeviceActors
@_spi(Host) @testable import SimulatediOS

/// The platform quirks of docs/platform.md, each off by default and visible when switched on.
@Suite struct PlatformQuirkTests {
    private func device(quirk: String?) throws -> SimulatedDevice {
        var config = DeviceConfig()
        if let quirk { config.quirks[quirk] = true }
        let device = try makeClarityDevice(config: config)
        _ = try device.perform(intent: "selectApps", arguments: JSONArguments(["apps": [.string(instagram)]]))
        return device
    }

    private func thresholdTimes(_ outcome: DeviceOutcome) -> [Double] {
        outcome.effects.filter { $0.entry.payload.kind == "monitor.threshold" }.map(\.entry.time.seconds)
    }

    @Test func batchedThresholdsArriveAtTheNextBatchTime() throws {
        let plain = try device(quirk: nil)
        _ = try plain.apply(.appOpen(app: instagram))
        _ = try plain.advance(seconds: 250)
        #expect(thresholdTimes(try plain.advance(seconds: 150)) == [300])

        let batched = try device(quirk: "batchedThresholds")
        _ = try batched.apply(.appOpen(app: instagram))
        _ = try batched.advance(seconds: 250)
        let outcome = try batched.advance(seconds: 150)
        #expect(thresholdTimes(outcome) == [360])
        #expect(outcome.notifications == ["Awareness Nudge: You've been on Instagram for 5 minutes."])
    }

    @Test func lateDefaultsPropagationLosesTheMonitorsLastWrites() throws {
        let plain = try device(quirk: nil)
        _ = try plain.apply(.appOpen(app: instagram))
        #expect(try plain.advance(seconds: 600).shownShields.map(\.title) == ["Text someone instead"])

        let late = try device(quirk: "lateDefaultsPropagation")
        _ = try late.apply(.appOpen(app: instagram))
        let outcome = try late.advance(seconds: 600)
        #expect(outcome.kinds.contains("store.writeLost"))
        #expect(try late.storeGet(suite: nil, key: "frictionLevel") == nil)
        // The shield itself (ManagedSettings) still applied; its texts read a level that never arrived.
        #expect(outcome.shownShields.map(\.title) == ["Take a breath"])
    }

    @Test func emptyDefaultsBeforeFirstUnlockHidesTheAppGroupFromExtensions() throws {
        for quirk in [false, true] {
            let device = try device(quirk: quirk ? "emptyDefaultsBeforeFirstUnlock" : nil)
            _ = try device.storeSet(suite: nil, key: "prosocialContactName", value: .string("Mom"))
            _ = try device.storeSet(suite: nil, key: "frictionLevel", value: .int(2))
            _ = try device.apply(.reboot)
            #expect(try device.state().locked)
            let title = try device.configAfterShieldingInstagram()
            #expect(title == (quirk ? "Take a breath" : "Text Mom instead"), "quirk \(quirk)")
            _ = try device.apply(.unlock)
            #expect(try device.configAfterShieldingInstagram() == "Text Mom instead")
        }
    }

    /// A compaction is no reboot: a device snapshotted between a reboot and the first unlock
    /// comes back still waiting for that unlock (it came back unlocked since boot, and its
    /// extensions read the App Group they should not have).
    @Test func emptyDefaultsBeforeFirstUnlockHoldsAcrossASnapshot() throws {
        let device = try device(quirk: "emptyDefaultsBeforeFirstUnlock")
        _ = try device.storeSet(suite: nil, key: "prosocialContactName", value: .string("Mom"))
        _ = try device.storeSet(suite: nil, key: "frictionLevel", value: .int(2))
        _ = try device.apply(.reboot)
        let restored = try SimulatedDevice(restoring: device.snapshot(), catalog: AppCatalog([.clarity]))
        #expect(try restored.configAfterShieldingInstagram() == "Take a breath")
        _ = try restored.apply(.unlock)
        // Unlocked, its extensions read the App Group again: the friction level and the name.
        // The reboot ended the main app, and the restore does not launch an app that was out of
        // memory (it once did, and rewrote the shared keys from its own store, which never had
        // the "Mom" set here from outside).
        #expect(try restored.configAfterShieldingInstagram() == "Text Mom instead")
        #expect(try restored.snapshot().unlockedSinceBoot == nil)
    }
}

extension SimulatedDevice {
    /// Shields Instagram through the `friction` store from outside, then asks its shield texts.
    fileprivate func configAfterShieldingInstagram() throws -> String? {
        let platform = platform
        try world.perform {
            try await platform.managedSettingsStore(named: "friction").setShield(applications: [instagram], categories: .none)
        }
        return try shieldConfig(app: instagram).title
    }
}
