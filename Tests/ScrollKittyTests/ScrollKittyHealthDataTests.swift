import DeviceActors
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import ScrollKitty

/// The seed's `appHealthData` holds each app's HP now, in every variant (docs/apps/scrollkitty.md,
/// "`appHealthData`"): what a widget, or anything else reading the seed's key, shows.
@Suite struct ScrollKittyHealthDataTests {
    static let variants: [ScrollKittySettings.Variant] = [
        .correct, .extensionTimer, .noNotificationAuth, .monitorReapplies, .readModifyWrite,
    ]

    private func device(_ variant: ScrollKittySettings.Variant, hpDailyReset: Bool = false) throws -> TestDevice {
        var config = DeviceConfig()
        config.app = ["variant": .string(variant.rawValue), "hpDailyReset": .bool(hpDailyReset)]
        return try TestDevice(app: .scrollKitty, config: config, exhaustivity: .off)
    }

    private func seedsKey(of device: TestDevice) throws -> StoredValue? {
        try device.value(forKey: "appHealthData", suite: group)
    }

    @Test(arguments: variants) func theSeedsKeyHoldsTheHPLeftAfterABypass(variant: ScrollKittySettings.Variant) throws {
        let device = try device(variant)
        try device.intent("selectApps", ["apps": [.string(App.instagram), .string(App.tiktok), .string(App.reddit)]])
        #expect(try seedsKey(of: device) == healthData([(App.instagram, 34, 34), (App.tiktok, 33, 33), (App.reddit, 33, 33)]))
        try device.send(.appOpen(app: App.instagram))
        try device.send(.shieldPress(app: App.instagram, button: .secondary))
        #expect(try device.hps() == [24, 33, 33])
        #expect(try seedsKey(of: device) == healthData([(App.instagram, 24, 34), (App.tiktok, 33, 33), (App.reddit, 33, 33)]))
    }

    /// `hpDailyReset`: at 00:00 the seed's key shows the split again, in the correct port and in
    /// the `readModifyWrite` variant, which keeps HP in that key and once never gave it back.
    @Test(arguments: [ScrollKittySettings.Variant.correct, .readModifyWrite])
    func midnightGivesTheHPBack(variant: ScrollKittySettings.Variant) throws {
        let device = try device(variant, hpDailyReset: true)
        try device.intent("selectApps", ["apps": [.string(App.instagram)]])
        try device.send(.appOpen(app: App.instagram))
        try device.send(.shieldPress(app: App.instagram, button: .secondary))
        #expect(try device.hps() == [90])
        try device.advance(minutes: 15 * 60 - 1)
        #expect(try device.hps() == [90], "23:59, the same day")
        try device.advance(minutes: 1)
        #expect(try device.hps() == [100])
        #expect(try seedsKey(of: device) == healthData([(App.instagram, 100, 100)]))
        try device.send(.appClose(app: App.instagram))
        try device.openShielded(App.instagram, shield: aliveShield("Instagram: 100/100 HP | Total: 100 HP"))
    }

    /// An App Group saved before the allocation had a key of its own (a snapshot of an earlier
    /// build: `appHealthData` held the shares): HP reads as before, and the main app's next
    /// launch moves the shares to `appHealthAllocation` and writes HP now to `appHealthData`.
    @Test func anAppGroupFromBeforeTheAllocationKeyMovesAtTheNextLaunch() throws {
        let device = try device(.correct)
        let shares = healthData([(App.instagram, 100, 100)])
        try device.setValue(.array([.string(App.instagram)]), forKey: "selectedApps", suite: group, effects: [])
        try device.setValue(shares, forKey: "appHealthData", suite: group, effects: [])
        try device.setValue(.int(1), forKey: "selection", suite: group, effects: [])
        try device.setValue(
            .data(Bypass.encode([Bypass(selection: 1, tokenId: tokenId(of: App.instagram), lost: 10, at: 0, cooldownEndsAt: 900)])),
            forKey: "bypasses", suite: group, effects: [])
        #expect(try device.hps() == [90])
        try device.send(.appTerminate(app: "com.scrollkitty.app"))
        try device.send(.appOpen(app: "com.scrollkitty.app"))
        #expect(try device.value(forKey: "appHealthAllocation", suite: group) == shares)
        #expect(try seedsKey(of: device) == healthData([(App.instagram, 90, 100)]))
        #expect(try device.hps() == [90])
    }
}
