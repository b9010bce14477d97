import BuiltInApps
import DeviceTesting
import Foundation
import ScreenRendering
import Testing

@testable import DeviceActors
@_spi(Host) @testable import SimulatediOS

/// `SimulatedDevice.screen()`: what a person holding the device sees, by the screen's rules
/// (docs/screen.md): the shield as its extension drew it, the shielded icons dimmed, the banners
/// of the last input only.
@Suite struct DeviceScreenTests {
    private let instagram = "com.burbn.instagram"

    private func device(_ app: String, apps more: [String] = [], config: DeviceConfig = DeviceConfig()) throws -> TestDevice {
        let registrations = try ([app] + more).map { name in try AppCatalog.builtIn.registration(named: name) }
        return try TestDevice(apps: registrations, config: config, exhaustivity: .off)
    }

    /// Clarity's friction path: Instagram chosen, opened, used ten minutes.
    private func frictionPath(_ device: TestDevice) throws {
        _ = try device.intent("selectApps", ["apps": [.string(instagram)]])
        try device.send(.appOpen(app: instagram))
        try device.advance(minutes: 5)
    }

    @Test func clarityShieldShowsOverInstagramWithItsIconDimmedAtHome() throws {
        let device = try device("clarity")
        try frictionPath(device)
        let nudged = try device.device.screen()
        #expect(nudged.frontmost == .init(bundleIdentifier: instagram, name: "Instagram") && nudged.shield == nil)
        #expect(nudged.banners.map(\.title) == ["Awareness Nudge"] && nudged.banners.first?.app == "Clarity")

        try device.advance(minutes: 5)
        let screen = try device.device.screen()
        let shield = try #require(screen.shield)
        #expect(shield.title == "Text someone instead" && shield.subtitle == "A real connection beats any feed")
        #expect(shield.primaryButtonLabel == "Open Clarity" && shield.secondaryButtonLabel == "I Choose to Continue")
        #expect(shield.source == .extension)
        #expect(screen.banners.isEmpty, "the nudge was the last input's; this one posted none")
        #expect(screen.home.first == .init(bundleIdentifier: "com.clarity.focus", name: "Clarity", shielded: false))
        #expect(screen.home.filter(\.shielded).map(\.bundleIdentifier) == [instagram])
        #expect(screen.clock == "09:10" && screen.date == "Monday, January 5" && !screen.locked)

        let drawn = SVGDocument(screen.svg())
        #expect(drawn.error == nil)
        #expect(drawn.text(of: "shield-title") == "Text someone instead")
        #expect(drawn.parts("shield")[0].attributes["data-source"] == "extension")

        try device.send(.appClose(app: instagram))
        let home = SVGDocument(try device.device.screen().svg())
        let icon = try #require(home.parts("home-icon").first { $0.attributes["data-app"] == instagram })
        #expect(icon.attributes["data-shielded"] == "true")
        #expect(home.parts("hourglass").count == 1, "only the shielded app wears the hourglass")
    }

    @Test func lookingAtTheScreenAsksNoExtensionAndTracesNothing() throws {
        let device = try device("clarity")
        try frictionPath(device)
        try device.advance(minutes: 5)
        let before = device.device.traceEntries(since: nil, limit: nil).count
        let launches = device.device.sandboxes().map(\.launches)
        #expect(try device.device.screen() == device.device.screen())
        #expect(device.device.traceEntries(since: nil, limit: nil).count == before)
        #expect(device.device.sandboxes().map(\.launches) == launches)
    }

    @Test func aJetsammedShieldConfigurationShowsTheSystemsRestrictedShield() throws {
        var config = DeviceConfig()
        config.memoryBudgets.shieldConfiguration = 2_500_000
        config.baselineBytes = 2_097_152
        let device = try device("clarity", config: config)
        // A contact name this long leaves the extension no room to read it in: jetsam.
        try device.setValue(.string(String(repeating: "A", count: 600_000)), forKey: "prosocialContactName", effects: [])
        try frictionPath(device)
        try device.advance(minutes: 5)
        let shield = try #require(try device.device.screen().shield)
        #expect(shield.source == .systemDefault)
        #expect(shield.title == "Restricted" && shield.subtitle == "You cannot use Instagram because it's restricted.")
        let drawn = SVGDocument(try device.device.screen().svg())
        #expect(drawn.parts("shield")[0].attributes["data-source"] == "systemDefault")
        #expect(drawn.text(of: "shield-title") == "Restricted")
    }

    @Test func scrollKittysShieldShowsTheHPItsExtensionWrote() throws {
        let device = try device("scrollkitty")
        _ = try device.intent("selectApps", ["apps": [.string(instagram)]])
        _ = try device.intent("setShieldFrequency", ["minutes": 10])
        try device.send(.appOpen(app: instagram))
        try device.send(.shieldPress(app: instagram, button: .secondary))
        try device.advance(minutes: 10)
        let screen = try device.device.screen()
        let subtitle = "Instagram: 90/100 HP | Total: 90 HP"
        #expect(screen.shield?.subtitle == subtitle)
        let svg = screen.svg()
        #expect(svg.contains(">\(subtitle)<"), "the HP line exactly as the extension drew it")
        #expect(SVGDocument(svg).text(of: "shield-subtitle") == subtitle)
    }

    @Test func aBannerShowsAfterTheInputThatPostedItAndIsGoneAfterTheNext() throws {
        let device = try device("scrollkitty")
        _ = try device.intent("selectApps", ["apps": [.string(instagram)]])
        try device.send(.appOpen(app: instagram))
        try device.send(.shieldPress(app: instagram, button: .secondary))
        let posted = try device.device.screen().banners
        #expect(posted.map(\.title) == ["Lost 10 HP"])
        #expect(posted.first?.app == "ScrollKitty", "the poster's name as its listing gives it")
        #expect(SVGDocument(try device.device.screen().svg()).text(of: "banner-title") == "Lost 10 HP")
        try device.advance(seconds: 1)
        #expect(try device.device.screen().banners.isEmpty, "gone after the next input")
        try device.send(.lock)
        let locked = try device.device.screen()
        #expect(locked.locked && locked.frontmost == nil && locked.shield == nil)
        #expect(SVGDocument(locked.svg()).text(of: "lock-clock") == "09:00")
        #expect(locked.banners.map(\.title) == ["Lost 10 HP"], "the lock screen lists what came since the last unlock")
        try device.send(.unlock)
        #expect(try device.device.screen().banners.isEmpty, "unlocking is an input: it posted nothing")
        try device.send(.lock)
        #expect(try device.device.screen().banners.isEmpty, "nothing came since the last unlock")
    }

    @Test func aScenariosParallelStepIsOneInputToo() throws {
        let device = try device("scrollkitty")
        _ = try device.intent("selectApps", ["apps": [.string(instagram)]])
        try device.send(.appOpen(app: instagram))
        try device.send(.shieldPress(app: instagram, button: .secondary))
        #expect(try device.device.runBranches([[.advance(seconds: 1)], [.advance(seconds: 2)]], of: 0, marks: StepMarks()).allSatisfy { $0 == nil })
        #expect(try device.device.screen().banners.isEmpty, "the press's banner was the step before's")
    }

    @Test func aRefusedInputLeavesTheBannersOfTheLastOneTaken() throws {
        let device = try device("scrollkitty")
        _ = try device.intent("selectApps", ["apps": [.string(instagram)]])
        try device.send(.appOpen(app: instagram))
        try device.send(.shieldPress(app: instagram, button: .secondary))
        #expect(throws: DeviceError.self) { try device.send(.appClose(app: "com.zhiliaoapp.musically")) }
        #expect(try device.device.screen().banners.map(\.title) == ["Lost 10 HP"])
    }

    @Test func aRestoredDeviceShowsTheSameShield() throws {
        let device = try device("clarity")
        try frictionPath(device)
        try device.advance(minutes: 5)
        let restored = try SimulatedDevice(restoring: try device.device.snapshot(), catalog: AppCatalog.builtIn)
        let screen = try restored.screen()
        #expect(screen.shield == (try device.device.screen().shield))
        #expect(screen.home == (try device.device.screen().home))
    }

    /// The daemon compacts a long journal into a snapshot and goes on with the device restored
    /// from it: what the screen showed, and the notifications delivered, stay.
    @Test func aRestoredDeviceKeepsItsBannersAndNotifications() throws {
        let device = try device("scrollkitty")
        _ = try device.intent("selectApps", ["apps": [.string(instagram)]])
        try device.send(.appOpen(app: instagram))
        try device.send(.shieldPress(app: instagram, button: .secondary))
        let restored = try SimulatedDevice(restoring: try device.device.snapshot(), catalog: AppCatalog.builtIn)
        #expect(try restored.notifications(since: nil) == device.device.notifications(since: nil))
        #expect(try restored.screen().banners.map(\.title) == ["Lost 10 HP"])
        #expect(try restored.screen() == device.device.screen())
    }

    @Test func severalAppsComeFirstInInstallOrderThenTheCatalogByName() throws {
        let device = try device("clarity", apps: ["scrollkitty"])
        let home = try device.device.screen().home
        let names = home.dropFirst(2).map(\.name)
        #expect(home.prefix(2).map(\.bundleIdentifier) == ["com.clarity.focus", "com.scrollkitty.app"])
        #expect(names == names.sorted() && names.contains("Instagram") && !names.contains("Clarity"))
    }

    @Test func aWebsiteInFrontIsNamedByItsDomainAndNeverOnTheHomeScreen() throws {
        let device = try device("clarity")
        try device.send(.appOpen(app: "web:reddit.com"))
        let screen = try device.device.screen()
        #expect(screen.frontmost == .init(bundleIdentifier: "web:reddit.com", name: "reddit.com"))
        #expect(!screen.home.contains { $0.bundleIdentifier.hasPrefix("web:") })
        #expect(SVGDocument(screen.svg()).text(of: "frontmost") == "reddit.com")
    }

    @Test func theClockAndDateAreInTheDevicesTimeZone() throws {
        let clarity = try AppCatalog.builtIn.registration(named: "clarity")
        let berlin = try TestDevice(app: clarity, timeZone: "Europe/Berlin", exhaustivity: .off).device.screen()
        #expect(berlin.clock == "10:00" && berlin.date == "Monday, January 5")
        let losAngeles = try TestDevice(
            app: clarity, start: "2026-01-05T07:30:00Z", timeZone: "America/Los_Angeles", exhaustivity: .off
        ).device.screen()
        #expect(losAngeles.clock == "23:30" && losAngeles.date == "Sunday, January 4")
    }

    @Test func anAndroidDeviceDrawsAndroid() throws {
        var config = DeviceConfig()
        config.platform = .android
        let device = try device("thephone", config: config)
        let screen = try device.device.screen()
        #expect(screen.platform == .android)
        let drawn = SVGDocument(screen.svg())
        #expect(drawn.parts("screen")[0].attributes["data-platform"] == "android" && drawn.parts("navigation-bar").count == 1)
    }
}
