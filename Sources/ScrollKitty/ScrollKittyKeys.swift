import Foundation

/// ScrollKitty's shared names (seed 004; docs/apps/scrollkitty.md). The main app and its three
/// extensions are separate processes: the App Group, the two ManagedSettings stores and the
/// DeviceActivity names are all they have in common. Project choices are marked.
enum ScrollKittyKeys {
    /// Project choice: the seed names only the App Group.
    static let bundleIdentifier = "com.scrollkitty.app"
    /// Seed 004, "Technical Implementation".
    static let appGroup = "group.com.scrollkitty.app"

    // App Group keys (all project choices, docs/apps/scrollkitty.md, "App Group keys"). The sources
    // have one writer process each (docs/apps/scrollkitty.md, "Across processes"): the main app the
    // selection, its allocation and the settings, ShieldAction `bypasses`; `appHealthData` is
    // derived from them.
    /// Data: JSON `{tokenId: {"hp", "maxHP"}}` (``AppHealth``), each app's HP now: derived from
    /// the allocation and the ledger and written by whichever process changed them
    /// (``ScrollKittyProcess/publishHealth(_:)``); in the `readModifyWrite` variant, the seed's
    /// own store of HP, changed in place.
    static let appHealthData = "appHealthData"
    /// Data: JSON `{tokenId: {"hp", "maxHP"}}` (``AppHealth``), each app's share when selected
    /// (the main app's; not in the `readModifyWrite` variant).
    static let appHealthAllocation = "appHealthAllocation"
    /// The selected apps' bundle ids, in selection order.
    static let selectedApps = "selectedApps"
    /// Int, +1 at every `selectApps`: bypasses of an earlier selection no longer count.
    static let selection = "selection"
    static let shieldFrequencyMinutes = "shieldFrequencyMinutes"
    /// `{"startHour", "endHour", "weekdays"}` (``FocusWindow``).
    static let focusWindow = "focusWindow"
    static let dailyLimitHours = "dailyLimitHours"
    /// Data: JSON `[{"selection", "tokenId", "lost", "at", "cooldownEndsAt"}]` (``Bypass``).
    static let bypasses = "bypasses"

    // ManagedSettings stores (project choices).
    /// The selected apps inside the focus window, less the apps in cooldown.
    static let focusStore = "scrollkitty"
    /// Every selected app once the cat is dead ("Hard Lock on ALL apps").
    static let hardLockStore = "hardLock"

    // DeviceActivity names (project choices).
    /// One repeating activity per weekday of the focus window: `scrollkitty_focus_<weekday>`.
    static let focusActivityPrefix = "scrollkitty_focus_"
    /// One activity per app in cooldown, starting when the cooldown ends: `scrollkitty_cooldown_<tokenId>`.
    static let cooldownActivityPrefix = "scrollkitty_cooldown_"

    /// With `hpDailyReset`: a daily activity starting at 00:00, so the monitor lifts the hard
    /// lock when HP returns.
    static let dayActivity = "scrollkitty_day"

    static func focusActivity(weekday: Int) -> String { "\(focusActivityPrefix)\(weekday)" }
    static func cooldownActivity(tokenId: String) -> String { "\(cooldownActivityPrefix)\(tokenId)" }

    /// Seed 004, "Active Shielding System": 100 HP shared, at most 10 apps, 10 HP a bypass.
    static let totalHP = 100
    static let maxApps = 10
    static let bypassCost = 10
    /// Project choice (the seed's example, "e.g., 15 min"); the seed's range is 10–60.
    static let defaultShieldFrequencyMinutes = 15
}
