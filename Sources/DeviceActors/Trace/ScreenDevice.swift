import Foundation
import ScreenRendering
@_spi(Host) import SimulatediOS

/// What a screen fold (``ScreenFold``) needs of a device and what never changes while it runs:
/// its platform, its installed apps in install order, its app catalog (the built-in one with the
/// apps' listings and config's extra apps), its start and time zone. A report carries it as its
/// `device`.
public struct ScreenDevice: Sendable, Hashable, Codable {
    /// An installed app: its name as the catalog of apps knows it (processes are `<name>.app`,
    /// `<name>.monitor`…) and its bundle id.
    public struct App: Sendable, Hashable, Codable {
        public var name: String
        public var bundleIdentifier: String

        public init(name: String, bundleIdentifier: String) {
            self.name = name
            self.bundleIdentifier = bundleIdentifier
        }
    }

    public var name: String
    public var platform: PhoneScreen.Platform
    public var apps: [App]
    public var catalog: CategoryCatalog
    /// ISO-8601 (`2026-01-05T08:00:00Z`): virtual time 0.
    public var start: String
    /// The zone's identifier (`America/New_York`).
    public var timeZone: String

    public init(
        name: String, platform: PhoneScreen.Platform, apps: [App], catalog: CategoryCatalog, start: String, timeZone: String
    ) {
        self.name = name
        self.platform = platform
        self.apps = apps
        self.catalog = catalog
        self.start = start
        self.timeZone = timeZone
    }

    /// The calendar its clock is read in.
    var calendar: DeviceCalendar {
        let zone = TimeZone(identifier: timeZone) ?? TimeZone(secondsFromGMT: 0)!
        return DeviceCalendar(start: DeviceCalendar.parseISO(start) ?? Date(timeIntervalSince1970: 0), timeZone: zone, name: timeZone)
    }
}

extension SimulatedDevice {
    /// This device as a screen fold needs it: read from what it was made with, never from its world.
    public var screenDevice: ScreenDevice {
        ScreenDevice(
            name: name, platform: platform.devicePlatform == .android ? .android : .ios,
            apps: apps.map { ScreenDevice.App(name: $0.name, bundleIdentifier: $0.bundleIdentifier) },
            catalog: platform.catalog, start: DeviceCalendar.isoString(calendar.start), timeZone: calendar.timeZoneName)
    }
}
