import BuiltInApps
import DeviceTesting
import SimulatediOS
import Testing

@testable import DailyLimit

/// DailyLimit beside Clarity on one phone, as a user may have both: each shields through its own
/// stores, the system shields an app if any store does, and lifting one app's shield leaves the
/// other's. The shield shown is drawn by the app whose store shields the app in front.
@Suite struct SeveralAppsTests {
    private let instagram = "com.burbn.instagram"
    private let clarity = try! #require(AppRegistration.builtIn.first { $0.name == "clarity" })

    /// Both apps on a device from `start`, DailyLimit first; Instagram limited to 30 minutes.
    private func phone(start: String) throws -> TestDevice {
        let device = try TestDevice(apps: [.dailyLimit, clarity], start: start, exhaustivity: .kinds(["shield.shown"]))
        try device.intent("limitApps", ["apps": [.string(instagram)]], app: "dailylimit")
        return device
    }

    private func dailyLimitShield(requests: Int = 0) -> ShieldConfiguration {
        ShieldConfiguration(
            title: "Daily limit reached", subtitle: "You've used your 30 minutes of Instagram today.",
            primaryButtonLabel: "Close", secondaryButtonLabel: "I need it")
    }

    @Test func eachAppIsListedWithItsOwnState() throws {
        let device = try phone(start: "2026-01-05T09:00:00Z")
        let state = try device.state()
        #expect(state.apps?.map(\.name) == ["dailylimit", "clarity"])
        #expect(state.apps?.map(\.appGroup) == ["group.com.example.dailylimit", "group.com.clarity.focus"])
        #expect(device.device.sandboxes().map { "\($0.app ?? "?").\($0.extension)" } == [
            "dailylimit.monitor", "dailylimit.shieldConfiguration", "dailylimit.shieldAction",
            "clarity.monitor", "clarity.shieldConfiguration", "clarity.shieldAction",
        ])
        #expect(throws: DeviceError.invalidArgument(field: "app", reason: "several apps are installed; name one (dailylimit, clarity)")) {
            try device.intent("status")
        }
    }

    /// DailyLimit's shield stays while Clarity's focus shield comes and goes.
    @Test func dailyLimitsShieldStaysWhileClaritysIsLifted() throws {
        let device = try phone(start: "2026-01-05T09:00:00Z")
        try device.send(.appOpen(app: instagram))
        try device.advance(minutes: 30, effects: [.shieldShown(app: instagram, configuration: dailyLimitShield(), source: .extension)])
        try device.send(.appOpen(app: "com.clarity.focus"))
        try device.intent("focus.start", ["minutes": 60], app: "clarity")
        #expect(try device.shields().apps?["clarity"]?["focus"] != nil)
        #expect(try device.shields().apps?["dailylimit"]?["dailyLimit"]?.applications == [instagram])
        try device.intent("focus.end", app: "clarity")
        #expect(try device.shields().apps?["clarity"]?["focus"] == nil, "Clarity's shield is lifted")
        #expect(try device.shields().effective.applications == [instagram], "DailyLimit's stays")
        try device.send(
            .appOpen(app: instagram), effects: [.shieldShown(app: instagram, configuration: dailyLimitShield(), source: .extension)])
    }

    /// And the reverse: midnight lifts DailyLimit's shield, and Clarity's focus shield, still on,
    /// covers Instagram with Clarity's own shield.
    @Test func claritysShieldStaysWhileDailyLimitsIsLifted() throws {
        let device = try phone(start: "2026-01-05T23:00:00Z")
        try device.send(.appOpen(app: instagram))
        try device.advance(minutes: 30, effects: [.shieldShown(app: instagram, configuration: dailyLimitShield(), source: .extension)])
        try device.send(.appOpen(app: "com.clarity.focus"))
        try device.intent("focus.start", ["minutes": 120], app: "clarity")
        try device.send(
            .appOpen(app: instagram), effects: [.shieldShown(app: instagram, configuration: dailyLimitShield(), source: .extension)])
        #expect(try device.device.shieldConfig(app: instagram).title == "Daily limit reached", "a token beats a category")
        device.exhaustivity = .off
        try device.advance(minutes: 30)
        #expect(try device.shields().effective.categories == ["all"], "Clarity's focus shield is on")
        #expect(try device.shields().effective.applications.isEmpty, "DailyLimit's is lifted at midnight")
        let shown = try device.device.shieldConfig(app: instagram)
        #expect(shown.title != "Daily limit reached" && shown.title != nil, "Clarity draws it now: \(shown)")
    }
}
