import Foundation
import Testing

@testable import DeviceActors
@_spi(Host) @testable import SimulatediOS

/// What iOS keeps per app stays per app: two apps on one device that name a ManagedSettings store
/// or a DeviceActivity activity alike get two (docs/platform.md, "Several apps on one device").
@Suite struct PerAppNamesTests {
    /// The device's platform as a second app, `dailylimit`, would be given it.
    private func secondApp(on device: SimulatedDevice) -> Platform {
        let platform = device.platform
        return Platform(
            appName: "dailylimit", appGroups: platform.appGroups, managedSettings: platform.managedSettings,
            deviceActivity: platform.deviceActivity, notifications: platform.notifications, system: platform.system,
            storeKit: platform.storeKit, health: platform.health, network: platform.network,
            shortcuts: platform.shortcutsAgent, work: platform.work, devicePlatform: platform.devicePlatform, deviceName: platform.deviceName, world: platform.world, trace: platform.trace, calendar: platform.calendar,
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

    private let daily = DeviceActivitySchedule(
        intervalStart: DateComponentsSpec(hour: 0, minute: 0), intervalEnd: DateComponentsSpec(hour: 23, minute: 59), repeats: true)

    @Test func twoAppsMonitoringAnActivityAlikeHaveTwoActivities() throws {
        let device = try makeClarityDevice()
        let clarity = device.platform.deviceActivityCenter
        let other = secondApp(on: device).deviceActivityCenter
        let otherEvents = ["limit": DeviceActivityEvent(applications: [instagram], threshold: DateComponentsSpec(minute: 1))]
        try device.run {
            try await clarity.startMonitoring("daily", during: self.daily)
            try await other.startMonitoring("daily", during: self.daily, events: otherEvents)
        }
        #expect(try device.run { try await clarity.activities() } == ["daily"])
        #expect(try device.run { try await other.activities() } == ["daily"])
        #expect(try device.activities().map(\.events) == [[:]], "activity.list shows the device's app's own")

        try device.run { try await other.stopMonitoring(["daily"]) }
        #expect(try device.run { try await other.activities() } == [])
        #expect(try device.activities().map(\.name) == ["daily"], "stopping the other app's leaves Clarity's")
        #expect(try device.snapshot().activities.keys.sorted() == ["daily"])
    }

    @Test func eachAppHasItsOwnLimitOfTwentyActivitiesAndItsOwnCallbacks() throws {
        let device = try makeClarityDevice()
        let other = secondApp(on: device).deviceActivityCenter
        let events = ["limit": DeviceActivityEvent(applications: [instagram], threshold: DateComponentsSpec(minute: 1))]
        try device.run {
            for index in 0..<DeviceActivityAgent.maxActivities {
                try await other.startMonitoring("a\(index)", during: self.daily, events: events)
            }
        }
        #expect(throws: DeviceError.self) {
            try device.run { try await other.startMonitoring("one more", during: self.daily) }
        }
        let clarity = device.platform.deviceActivityCenter
        try device.run { try await clarity.startMonitoring("daily", during: self.daily) }
        #expect(try device.activities().map(\.name) == ["daily"])

        // The other app's thresholds are reached, but it has no monitor on this device: Clarity's
        // monitor is not called with them.
        _ = try device.apply(.appOpen(app: instagram))
        let effects = try device.advance(seconds: 120).effects
        let agent = device.platform.deviceActivity
        let progress = try device.run { await agent.currentActivities(of: "dailylimit")["a0"]?.progress["limit"] }
        #expect(progress == 120_000, "the threshold (1 minute) is passed")
        #expect(!effects.contains { $0.entry.payload.kind == "monitor.threshold" })
    }
}
