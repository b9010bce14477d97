import Foundation
import Testing

@testable import DeviceActors
@_spi(Host) @testable import SimulatediOS

/// What iOS keeps per app stays per app: two apps on one device that name a ManagedSettings store
/// alike get two stores (docs/platform.md, "Per-app names").
@Suite struct PerAppNamesTests {
    /// The device's platform as a second app, `dailylimit`, would be given it.
    private func secondApp(on device: SimulatedDevice) -> Platform {
        let platform = device.platform
        return Platform(
            appName: "dailylimit", appGroups: platform.appGroups, managedSettings: platform.managedSettings,
            deviceActivity: platform.deviceActivity, notifications: platform.notifications, system: platform.system,
            storeKit: platform.storeKit, world: platform.world, trace: platform.trace, calendar: platform.calendar,
            catalog: platform.catalog)
    }

    @Test func twoAppsNamingAStoreAlikeHaveTwoStoresAndTheUnionShields() throws {
        let device = try makeClarityDevice()
        let clarity = device.platform.managedSettingsStore(named: "friction")
        let other = secondApp(on: device).managedSettingsStore(named: "friction")
        try device.run {
            try await clarity.setShield(applications: [instagram], categories: .none)
            try await other.setShield(applications: ["com.zhiliaoapp.musically"], categories: .none)
        }
        #expect(try device.run { try await clarity.shield().applications } == [instagram])
        #expect(try device.run { try await other.shield().applications } == ["com.zhiliaoapp.musically"])
        let shields = try device.shields()
        #expect(shields.stores == ["friction": ShieldSettings(applications: [instagram])])
        #expect(shields.effective.applications == ["com.burbn.instagram", "com.zhiliaoapp.musically"])

        try device.run { try await other.clearAllSettings() }
        #expect(try device.shields().effective.applications == [instagram])
        #expect(try device.snapshot().managedSettings == ["friction": ShieldSettings(applications: [instagram])])
    }

    @Test func eachAppHasItsOwnLimitOfFiftyStores() throws {
        let device = try makeClarityDevice()
        let other = secondApp(on: device)
        let limit = ManagedSettingsAgent.maxStores
        try device.run {
            for index in 0..<limit {
                try await other.managedSettingsStore(named: "s\(index)").setShield(applications: [instagram], categories: .none)
            }
        }
        #expect(throws: DeviceError.refused(reason: "tooManyStores", message: "ManagedSettings refused: tooManyStores")) {
            try device.run {
                try await other.managedSettingsStore(named: "one more").setShield(applications: [instagram], categories: .none)
            }
        }
        let clarity = device.platform.managedSettingsStore(named: "friction")
        try device.run { try await clarity.setShield(applications: [instagram], categories: .none) }
        #expect(try device.shields().stores.keys.sorted() == ["friction"])
    }
}
