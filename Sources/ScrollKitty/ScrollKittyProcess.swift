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

    /// `tokenId` (seed 004, "Token Identifier Mismatch" fix): the base64 of the token's encoded
    /// data, `JSONEncoder().encode(token).base64EncodedString()`. The simulated token's data is
    /// its bundle id's UTF-8 bytes (docs/apps/scrollkitty.md), so the key is stable and never
    /// shared by two apps — unless the platform quirk `unstableTokens` changes the data from one
    /// process to the next, which breaks this key (the seed's own, kept as written).
    func tokenId(of application: String) -> String {
        platform.encodedToken(of: application).base64EncodedString()
    }

    // MARK: - The App Group

    func selectedApps() async throws -> [String] {
        try await sharedDefaults.stringArray(forKey: ScrollKittyKeys.selectedApps) ?? []
    }

    /// Each app's share when selected (`appHealthAllocation`), and whether `appHealthData` is
    /// derived from it. In the `readModifyWrite` variant the seed's `appHealthData` holds HP
    /// itself; so does an App Group saved before the allocation had a key of its own (its
    /// `appHealthData` is the allocation, until the main app's next launch moves it).
    func allocation() async throws -> (health: [String: AppHealth], derivesHealthData: Bool) {
        if settings.variant != .readModifyWrite, let data = try await sharedDefaults.data(forKey: ScrollKittyKeys.appHealthAllocation) {
            return (AppHealth.decode(data), true)
        }
        return (AppHealth.decode(try await sharedDefaults.data(forKey: ScrollKittyKeys.appHealthData)), false)
    }

    /// Writes the allocation where ``allocation()`` reads it (`appHealthData` in the
    /// `readModifyWrite` variant).
    func setAllocation(_ health: [String: AppHealth]) async throws {
        let key = settings.variant == .readModifyWrite ? ScrollKittyKeys.appHealthData : ScrollKittyKeys.appHealthAllocation
        try await sharedDefaults.set(.data(AppHealth.encode(health)), forKey: key)
    }

    func selection() async throws -> Int {
        try await sharedDefaults.object(forKey: ScrollKittyKeys.selection)?.intValue ?? 0
    }

    func ledger() async throws -> [Bypass] {
        Bypass.decode(try await sharedDefaults.data(forKey: ScrollKittyKeys.bypasses))
    }

    func setLedger(_ ledger: [Bypass]) async throws {
        try await sharedDefaults.set(.data(Bypass.encode(ledger)), forKey: ScrollKittyKeys.bypasses)
    }

    /// The cat now, read from the App Group (selection first: a bypass recorded for it is never
    /// counted against a later allocation).
    func cat() async throws -> CatHealth {
        let selection = try await selection()
        let apps = try await selectedApps()
        let allocation = try await allocation()
        let ledger = try await ledger()
        return CatHealth(
            selectedApps: apps, allocation: allocation.health, derivesHealthData: allocation.derivesHealthData,
            selection: selection, ledger: ledger,
            countsFrom: settings.hpDailyReset ? platform.calendar.startOfDay(platform.now).seconds : nil)
    }

    func focusWindow() async throws -> FocusWindow {
        FocusWindow(try await sharedDefaults.object(forKey: ScrollKittyKeys.focusWindow))
    }

    func shieldFrequencyMinutes() async throws -> Int {
        try await sharedDefaults.object(forKey: ScrollKittyKeys.shieldFrequencyMinutes)?.intValue
            ?? ScrollKittyKeys.defaultShieldFrequencyMinutes
    }

    // MARK: - Shields

    /// Puts both stores where the App Group says they should be: `scrollkitty` holds the selected
    /// apps inside the focus window less those in cooldown; `hardLock` every selected app once dead
    /// (docs/apps/scrollkitty.md, "Stores and activities"). A store already right is not written
    /// (no effect). With `honouringCooldowns` false (the `monitorReapplies` variant) apps in
    /// cooldown are shielded too. `cat` is the App Group as the caller just read it, when nothing
    /// was written since.
    ///
    /// Several processes write the stores, each from what it read: one whose read is older than
    /// another's write would put a stale list back (a Continue on TikTok as Instagram's cooldown
    /// ends: the monitor re-shielded TikTok right after the user paid). So after writing, the
    /// sources another process changes before it writes the stores (`selection`, the ledger) are
    /// read again; while they moved, the stores are written again from them. The last write of
    /// the stores is then always computed from the sources as they stand.
    func applyShields(honouringCooldowns: Bool = true, cat known: CatHealth? = nil) async throws {
        var cat: CatHealth
        if let known { cat = known } else { cat = try await self.cat() }
        while true {
            let now = platform.now.seconds
            let inWindow = try await focusWindow().contains(platform.now, calendar: platform.calendar)
            let shielded = inWindow
                ? cat.selectedApps.filter { !(honouringCooldowns && cat.isCooling(tokenId(of: $0), at: now)) } : []
            try await focusStore.setShield(applications: Set(shielded), categories: .none)
            try await hardLockStore.setShield(applications: cat.isDead ? Set(cat.selectedApps) : [], categories: .none)
            let selectionNow = try await selection()
            let ledgerNow = try await ledger()
            guard selectionNow != cat.selection || ledgerNow != cat.ledger else { return }
            cat = try await self.cat()
        }
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

    /// Wakes the monitor when a cooldown ends: an interval that *starts* at `end`
    /// (docs/apps/scrollkitty.md, "Rules": a cooldown shorter than DeviceActivity's 15-minute
    /// minimum cannot be an interval of its own, so every cooldown is re-shielded at the start of
    /// one that lasts the minimum).
    func monitorCooldown(tokenId: String, endsAt end: VirtualInstant) async throws {
        try await monitorCooldown(tokenId: tokenId, interval: end, Self.minimumIntervalAfter(end))
    }

    /// DeviceActivity's shortest interval (15 minutes) from `start`.
    private static func minimumIntervalAfter(_ start: VirtualInstant) -> VirtualInstant {
        VirtualInstant(seconds: start.seconds + 15 * 60)
    }

    /// The `monitorReapplies` variant's cooldown: an interval from now to the cooldown's end (at
    /// least the 15-minute minimum), which starts at once.
    func monitorCooldownFromNow(tokenId: String, endsAt end: VirtualInstant) async throws {
        try await monitorCooldown(tokenId: tokenId, interval: platform.now, max(end, Self.minimumIntervalAfter(platform.now)))
    }

    private func monitorCooldown(tokenId: String, interval start: VirtualInstant, _ end: VirtualInstant) async throws {
        try await platform.deviceActivityCenter.startMonitoring(
            ScrollKittyKeys.cooldownActivity(tokenId: tokenId),
            during: DeviceActivitySchedule(intervalStart: spec(start), intervalEnd: spec(end), repeats: false))
    }

    /// With `hpDailyReset`: a daily interval from 00:00, whose start wakes the monitor to put the
    /// shields where the day's HP says (the hard lock lifted).
    func monitorDay() async throws {
        try await platform.deviceActivityCenter.startMonitoring(
            ScrollKittyKeys.dayActivity,
            during: DeviceActivitySchedule(
                intervalStart: DateComponentsSpec(hour: 0, minute: 0, second: 0),
                intervalEnd: DateComponentsSpec(hour: 0, minute: 15, second: 0), repeats: true))
    }

    /// Stops every cooldown's activity (a new selection, or death: the hard lock shields them all).
    func stopCooldownMonitoring() async throws {
        let center = platform.deviceActivityCenter
        let cooling = try await center.activities().filter { $0.hasPrefix(ScrollKittyKeys.cooldownActivityPrefix) }
        if !cooling.isEmpty { try await center.stopMonitoring(cooling) }
    }

    /// `instant` as full local date components.
    private func spec(_ instant: VirtualInstant) -> DateComponentsSpec {
        let components = platform.calendar.calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: platform.calendar.date(instant))
        return DateComponentsSpec(
            year: components.year, month: components.month, day: components.day, hour: components.hour,
            minute: components.minute, second: components.second)
    }

    /// A cooldown is over (if the app's last one is due): the cooldown's activity stops
    /// (`stoppingActivity`, when DeviceActivity drove it), the app is shielded again if inside
    /// the focus window, and `Shield Returning` is posted (seed 004, Critical Issue 3). Nothing is
    /// written to the App Group: a cooldown is over when its end has passed.
    func endCooldown(tokenId id: String, stoppingActivity activity: String?) async throws {
        if let activity { try await platform.deviceActivityCenter.stopMonitoring([activity]) }
        let cat = try await cat()
        guard let end = cat.cooldownEnd(of: id), end <= platform.now.seconds, !cat.isDead else { return }
        try await applyShields(cat: cat)
        let app = cat.selectedApps.first { tokenId(of: $0) == id }
        let name = app.map(platform.catalog.displayName(of:)) ?? "Your app"
        try await platform.notificationCenter.add(
            title: "Shield Returning", body: "\(name)'s cooldown is over. Scroll Kitty is watching again.")
    }
}
