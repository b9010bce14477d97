import ControlProtocol
import DeviceActors
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import ScrollKitty

/// The apps the ScrollKitty suites select, with their catalog names.
enum App {
    static let instagram = "com.burbn.instagram"  // Instagram
    static let tiktok = "com.zhiliaoapp.musically"  // TikTok
    static let reddit = "com.reddit.Reddit"  // Reddit
    /// Ten catalog apps, for the split.
    static let ten = [
        instagram, tiktok, reddit, "com.atebits.Tweetie2", "com.facebook.Facebook", "com.toyopagroup.picaboo",
        "com.google.ios.youtube", "com.netflix.Netflix", "com.amazon.Amazon", "com.shein.sheinapp",
    ]
}

let group = "group.com.scrollkitty.app"

/// An app's `tokenId` as the port computes it without `unstableTokens`: the base64 of the bundle
/// id's UTF-8 bytes.
func tokenId(of app: String) -> String {
    Data(app.utf8).base64EncodedString()
}

/// `appHealthData` as the app writes it: `apps` with their `(hp, maxHP)`.
func healthData(_ apps: [(String, Int, Int)]) -> StoredValue {
    var health: [String: AppHealth] = [:]
    for (app, hp, maxHP) in apps { health[tokenId(of: app)] = AppHealth(hp: hp, maxHP: maxHP) }
    return .data(AppHealth.encode(health))
}

/// The seed's `appHealthData` written with each app's HP now (`apps` with their `(hp, maxHP)`).
func healthWrite(_ apps: [(String, Int, Int)]) -> Effect {
    .storeWrite(suite: group, key: "appHealthData", value: healthData(apps))
}

/// The `bypasses` ledger as ShieldAction writes it: `(app, lost, at, cooldownEndsAt)` each, of
/// selection `selection`.
func ledgerWrite(_ bypasses: [(String, Int, Double, Double)], selection: Int = 1) -> Effect {
    let ledger = bypasses.map { app, lost, at, end in
        Bypass(selection: selection, tokenId: tokenId(of: app), lost: lost, at: at, cooldownEndsAt: end)
    }
    return .storeWrite(suite: group, key: "bypasses", value: .data(Bypass.encode(ledger)))
}

/// The shield of a live cat: the seed's per-app line, `Close` and `Continue` (none at 0 HP).
func aliveShield(_ subtitle: String, canContinue: Bool = true) -> ShieldConfiguration {
    ShieldConfiguration(
        title: "Scroll Kitty is watching", subtitle: subtitle, primaryButtonLabel: "Close",
        secondaryButtonLabel: canContinue ? "Continue" : nil)
}

let deadShield = ShieldConfiguration(
    title: "Scroll Kitty is Dead", subtitle: "Hard lock on all apps. Total: 0 HP", primaryButtonLabel: "Close",
    secondaryButtonLabel: nil)

/// `selectApps` on a fresh device on Monday 09:00 (weekday 2) with the default window (all day,
/// every day): the App Group written, the seven window days monitored (Monday's interval running)
/// and the apps shielded by the monitor.
func firstSelectionEffects(_ apps: [String], health: [(String, Int, Int)], readModifyWrite: Bool = false) -> [Effect] {
    let selected: [Effect] = [
        .storeWrite(suite: group, key: "selectedApps", value: .array(apps.map(StoredValue.string))),
        .storeWrite(suite: group, key: readModifyWrite ? "appHealthData" : "appHealthAllocation", value: healthData(health)),
        .storeWrite(suite: group, key: "selection", value: .int(1)),
    ]
    return selected + (readModifyWrite ? [] : [healthWrite(health)]) + [
        .activityStart(activity: "scrollkitty_focus_1"),
        .activityStart(activity: "scrollkitty_focus_2"),
        .monitorIntervalStart(activity: "scrollkitty_focus_2"),
    ] + (3...7).map { .activityStart(activity: "scrollkitty_focus_\($0)") } + [
        .shieldApply(store: "scrollkitty", applications: apps.sorted(), categories: .none)
    ]
}

/// A cooldown ending while `app` is in front: the cooldown's interval starts, the monitor stops
/// its activity (whose interval ends at once, beside the callback: docs/platform.md, "The system
/// reacts to writes when they land"), shields `shielding` again and says `Shield Returning`; the
/// shield is drawn over `app`.
func cooldownEndEffects(_ app: String, shielding: [String], shield: ShieldConfiguration) -> [Effect] {
    let activity = "scrollkitty_cooldown_\(tokenId(of: app))"
    let name = CategoryCatalog.builtIn.displayName(of: app)
    return [
        .monitorIntervalStart(activity: activity),
        .activityStop(activity: activity),
        .monitorIntervalEnd(activity: activity),
        .shieldApply(store: "scrollkitty", applications: shielding, categories: .none),
        .notification(title: "Shield Returning", body: "\(name)'s cooldown is over. Scroll Kitty is watching again."),
        .shieldShown(app: app, configuration: shield, source: .extension),
        .appState(locked: false, foregroundApp: app, shieldShown: true),
    ]
}

extension TestDevice {
    /// A ScrollKitty device (Monday 2026-01-05 09:00 UTC) with `apps` selected, effects checked.
    static func scrollKitty(selecting apps: [String], shares: [Int], config: DeviceConfig = DeviceConfig()) throws -> TestDevice {
        let device = try TestDevice(app: .scrollKitty, config: config)
        let health = zip(apps, shares).map { ($0, $1, $1) }
        let readModifyWrite = config.app?["variant"] == .string("readModifyWrite")
        try device.intent(
            "selectApps", ["apps": .array(apps.map(JSONValue.string))],
            effects: firstSelectionEffects(apps, health: health, readModifyWrite: readModifyWrite))
        return device
    }

    /// Writes `appHealthAllocation` as another process would (a shortcut to a state of HP: the
    /// allocation, with no bypass recorded yet; `appHealthData` is left as it was).
    func writeHealth(_ apps: [(String, Int, Int)]) throws {
        let health = healthData(apps)
        try setValue(
            health, forKey: "appHealthAllocation", suite: group,
            effects: [.storeWrite(suite: group, key: "appHealthAllocation", value: health)])
    }

    /// Opens `app`, which is shielded: the shield drawn by ScrollKittyShield.
    func openShielded(_ app: String, shield: ShieldConfiguration) throws {
        try send(
            .appOpen(app: app),
            effects: [
                .appState(locked: false, foregroundApp: app, shieldShown: false),
                .shieldShown(app: app, configuration: shield, source: .extension),
                .appState(locked: false, foregroundApp: app, shieldShown: true),
            ])
    }

    /// `device.state.app.apps[*].hp`.
    func hps() throws -> [Int] {
        try appState(as: ScrollKittyState.self).apps.map(\.hp)
    }
}
