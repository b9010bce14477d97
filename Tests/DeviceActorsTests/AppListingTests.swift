import Foundation
import Testing

@testable import Clarity
@testable import DeviceActors
@_spi(Host) @testable import SimulatediOS

/// Issue 40: an app's own bundle is in its device's catalog as its registration lists it
/// (``AppRegistration/listing``), not as SimulatediOS's built-in catalog names it: the catalog
/// names no app of this project.
@Suite struct AppListingTests {
    /// Seconds of use today by category after `seconds` in `bundle`.
    static func usage(on device: SimulatedDevice, of bundle: String, seconds: Double) throws -> [String: Double] {
        _ = try device.apply(.appOpen(app: bundle))
        _ = try device.advance(seconds: seconds)
        return try device.state().usageTodayByCategory
    }

    @Test func aClarityDeviceListsItsOwnBundleAsProductivityAsBefore() throws {
        #expect(CategoryCatalog.builtIn.category(of: "com.clarity.focus") == nil)
        let usage = try Self.usage(on: try makeClarityDevice(), of: "com.clarity.focus", seconds: 60)
        #expect(usage["productivity"] == 60, "\(usage)")
    }

    @Test func anAppsListingIsItsDevicesAndConfigAppsStillWin() throws {
        let games = AppRegistration(
            description: ClarityApp.description, listing: CategoryCatalog.Entry(name: "Focus", category: "games")
        ) { platform, executors in ClarityApp(platform: platform, executors: executors, config: ClarityConfig()) }
        let start = try #require(DeviceCalendar.parseISO("2026-01-05T09:00:00Z"))
        let utc = try #require(TimeZone(identifier: "UTC"))
        let device = try SimulatedDevice(DeviceDescription(name: "t", apps: .registered([games]), start: start, timeZone: utc, seed: 1))
        #expect(try Self.usage(on: device, of: "com.clarity.focus", seconds: 60)["games"] == 60)
        #expect(device.catalog.displayName(of: "com.clarity.focus") == "Focus")
        var config = DeviceConfig()
        config.apps = ["com.clarity.focus": CategoryCatalog.Entry(name: "Mine", category: "utilities")]
        let overridden = try SimulatedDevice(DeviceDescription(name: "u", apps: .registered([games]), start: start, timeZone: utc, seed: 1, config: config))
        #expect(try Self.usage(on: overridden, of: "com.clarity.focus", seconds: 60)["utilities"] == 60)
    }
}
