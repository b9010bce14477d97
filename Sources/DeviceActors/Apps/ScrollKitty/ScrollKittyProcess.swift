import ExtensionSandbox
import Foundation
import SimulatediOS

/// What every ScrollKitty process (the main app and each extension) is given: the platform and
/// handles on what the processes share. Each process reads the App Group afresh, as on iOS.
struct ScrollKittyProcess: Sendable {
    let platform: Platform
    let settings: ScrollKittySettings

    /// `UserDefaults(suiteName: "group.com.scrollkitty.app")`.
    var sharedDefaults: AppGroupDefaults { platform.userDefaults(suiteName: ScrollKittyKeys.appGroup) }
    var focusStore: ManagedSettingsStore { platform.managedSettingsStore(named: ScrollKittyKeys.focusStore) }
    var hardLockStore: ManagedSettingsStore { platform.managedSettingsStore(named: ScrollKittyKeys.hardLockStore) }

    // MARK: - The App Group

    func selectedApps() async throws -> [String] {
        try await sharedDefaults.stringArray(forKey: ScrollKittyKeys.selectedApps) ?? []
    }

    func health() async throws -> [String: AppHealth] {
        AppHealth.decode(try await sharedDefaults.data(forKey: ScrollKittyKeys.appHealthData))
    }

    func setHealth(_ health: [String: AppHealth]) async throws {
        try await sharedDefaults.set(.data(AppHealth.encode(health)), forKey: ScrollKittyKeys.appHealthData)
    }

    /// `{tokenId: end}`, the end as virtual `t`.
    func cooldowns() async throws -> [String: Double] {
        guard case .dictionary(let entries)? = try await sharedDefaults.object(forKey: ScrollKittyKeys.cooldowns) else {
            return [:]
        }
        return entries.compactMapValues(\.doubleValue)
    }

    func setCooldowns(_ cooldowns: [String: Double]) async throws {
        try await sharedDefaults.set(.dictionary(cooldowns.mapValues(StoredValue.double)), forKey: ScrollKittyKeys.cooldowns)
    }

    func focusWindow() async throws -> FocusWindow {
        FocusWindow(try await sharedDefaults.object(forKey: ScrollKittyKeys.focusWindow))
    }

    func shieldFrequencyMinutes() async throws -> Int {
        try await sharedDefaults.object(forKey: ScrollKittyKeys.shieldFrequencyMinutes)?.intValue
            ?? ScrollKittyKeys.defaultShieldFrequencyMinutes
    }

    func isDead() async throws -> Bool {
        try await sharedDefaults.bool(forKey: ScrollKittyKeys.isDead)
    }

    // MARK: - Shields

    /// Puts both stores where the App Group says they should be: `scrollkitty` holds the selected
    /// apps inside the focus window less those in cooldown; `hardLock` every selected app once
    /// dead (APPS.md 1.1). A store already right is not written (no effect).
    func applyShields() async throws {
        let apps = try await selectedApps()
        let cooling = Set(try await cooldowns().keys)
        let inWindow = try await focusWindow().contains(platform.now, calendar: platform.calendar)
        let shielded = inWindow ? apps.filter { !cooling.contains(tokenId(of: $0)) } : []
        try await focusStore.setShield(applications: Set(shielded), categories: .none)
        let dead = try await isDead()
        try await hardLockStore.setShield(applications: dead ? Set(apps) : [], categories: .none)
    }

    // MARK: - DeviceActivity

    /// Monitors the focus window's boundaries: one repeating activity per window day, and the
    /// activities of days no longer in the window stopped.
    func monitorFocusWindow(_ window: FocusWindow) async throws {
        let center = platform.deviceActivityCenter
        let stale = try await center.activities().filter { name in
            name.hasPrefix(ScrollKittyKeys.focusActivityPrefix)
                && !window.weekdays.map(ScrollKittyKeys.focusActivity(weekday:)).contains(name)
        }
        if !stale.isEmpty { try await center.stopMonitoring(stale) }
        for weekday in window.weekdays {
            try await center.startMonitoring(ScrollKittyKeys.focusActivity(weekday: weekday), during: window.schedule(weekday: weekday))
        }
    }

    /// Wakes the monitor when a cooldown ends: an interval that *starts* at `end` (BEHAVIOR.md:
    /// a cooldown shorter than DeviceActivity's 15-minute minimum cannot be an interval of its
    /// own, so every cooldown is re-shielded at the start of one that lasts the minimum).
    func monitorCooldown(tokenId: String, endsAt end: VirtualInstant) async throws {
        let components = platform.calendar.calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: platform.calendar.date(end))
        let intervalEnd = platform.calendar.calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: platform.calendar.date(end + .minutes(15)))
        try await platform.deviceActivityCenter.startMonitoring(
            ScrollKittyKeys.cooldownActivity(tokenId: tokenId),
            during: DeviceActivitySchedule(intervalStart: Self.spec(components), intervalEnd: Self.spec(intervalEnd), repeats: false))
    }

    /// Stops every cooldown's activity (a new selection, or death: the hard lock shields them all).
    func stopCooldownMonitoring() async throws {
        let center = platform.deviceActivityCenter
        let cooling = try await center.activities().filter { $0.hasPrefix(ScrollKittyKeys.cooldownActivityPrefix) }
        if !cooling.isEmpty { try await center.stopMonitoring(cooling) }
    }

    private static func spec(_ components: DateComponents) -> DateComponentsSpec {
        DateComponentsSpec(
            year: components.year, month: components.month, day: components.day, hour: components.hour,
            minute: components.minute, second: components.second)
    }

    /// A cooldown is over (if it was due and not ended yet): the entry leaves `cooldowns`, the
    /// cooldown's activity stops (`stoppingActivity`, when DeviceActivity drove it), the app is
    /// shielded again if inside the focus window, and `Shield Returning` is posted (seed 004,
    /// Critical Issue 3).
    func endCooldown(tokenId id: String, stoppingActivity activity: String?) async throws {
        var cooldowns = try await cooldowns()
        guard let end = cooldowns[id], end <= platform.now.seconds else { return }
        cooldowns[id] = nil
        try await setCooldowns(cooldowns)
        if let activity { try await platform.deviceActivityCenter.stopMonitoring([activity]) }
        try await applyShields()
        let app = try await selectedApps().first { tokenId(of: $0) == id }
        let name = app.map(platform.catalog.displayName(of:)) ?? "Your app"
        try await platform.notificationCenter.add(
            title: "Shield Returning", body: "\(name)'s cooldown is over. Scroll Kitty is watching again.")
    }
}
