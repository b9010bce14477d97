import ExtensionSandbox
import Foundation
import ScreenRendering
@_spi(Host) import SimulatediOS

/// The phone's screen folded from a trace, as a person holding it would have seen it after each
/// entry: a pure function of the device's description (``ScreenDevice``) and its trace entries
/// in order, so a report draws the screen at every step without asking the device (a query
/// would create world tasks and change the task numbers replay tokens name). The rules are the
/// live screen's (docs/screen.md):
///
/// - home: the installed apps in install order, then every other app of the catalog by display
///   name, then bundle id; websites never. An app is shielded when some store's shield covers it,
///   by ManagedSettings' own rule (``ShieldSettings/shieldReason(for:in:catalog:)``).
/// - frontmost: the foreground app of the last `app.state` (none when locked), by display name.
/// - shield: when unlocked, an app in front and `app.state` says a shield covers it: the texts,
///   look and source of the last `shield.shown` for that app.
/// - banners: the notifications shown (not while Focus was on, not suppressed) after the last
///   input began, by trace order (several inputs can share one instant), newest first; on the
///   lock screen, every one since the phone was last unlocked.
/// - clock `HH:mm`, date `EEEE, MMMM d` (en_US_POSIX), in the device's time zone.
public struct ScreenFold: Sendable {
    public let device: ScreenDevice
    private let calendar: DeviceCalendar
    /// The App Group and the shields, folded from the same entries.
    public private(set) var stores = StoreFold()
    private var now = VirtualInstant.epoch
    private var locked = false
    private var foregroundApp: String?
    private var shieldShown = false
    private var focusMode = false
    /// The last shield drawn for each app, by bundle id.
    private var drawn: [String: PhoneScreen.Shield] = [:]
    /// The sequence of the last `app.state` that unlocked the phone (0: none yet).
    private var lastUnlock = 0
    /// The banners shown, oldest first, each with its trace sequence.
    private var shown: [(sequence: Int, banner: PhoneScreen.Banner)] = []

    public init(device: ScreenDevice) {
        self.device = device
        calendar = device.calendar
    }

    /// Folds one trace entry in.
    public mutating func apply(_ entry: TraceEntry<Effect>) {
        now = entry.time
        stores.apply(entry.payload)
        switch entry.payload {
        case .appState(let locked, let foregroundApp, let shieldShown):
            if self.locked, !locked { lastUnlock = entry.sequence }
            (self.locked, self.foregroundApp, self.shieldShown) = (locked, foregroundApp, shieldShown)
        case .focusMode(let on):
            focusMode = on
        case .shieldShown(let app, let configuration, let source):
            drawn[app] = PhoneScreen.Shield(app: app, configuration: configuration, source: source)
        case .notification(let title, let body):
            if !focusMode { show(title: title, body: body, source: entry.actor, at: entry.sequence) }
        case .push(let title, let body, _):
            if !focusMode { show(title: title, body: body, source: "push", at: entry.sequence) }
        default:
            break
        }
    }

    /// The screen at virtual time `t` (when given: the clock can pass with nothing traced, as an
    /// `advance` that nothing wakes in; else the last entry's time), its banners those shown
    /// after trace sequence `inputBegan` (the last sequence before the last input began).
    public func screen(inputBegan: Int, at t: Double? = nil) -> PhoneScreen {
        let now = t.map { VirtualInstant(seconds: $0) } ?? now
        let front = locked ? nil : foregroundApp
        let shield = front.flatMap { shieldShown ? drawn[$0] : nil }
        let face = calendar.screenFace(now)
        return PhoneScreen(
            platform: device.platform, t: now.seconds, clock: face.clock, date: face.date, locked: locked, home: home(),
            frontmost: front.map { PhoneScreen.Frontmost(bundleIdentifier: $0, name: device.catalog.displayName(of: $0)) },
            shield: shield, banners: shown.filter { $0.sequence > (locked ? lastUnlock : inputBegan) }.map(\.banner).reversed(),
            focusMode: focusMode)
    }

    private mutating func show(title: String, body: String, source: String, at sequence: Int) {
        let installed = device.apps.map { (name: $0.name, bundle: $0.bundleIdentifier) }
        let app = device.catalog.bannerHeader(source: source, installed: installed)
        shown.append((sequence, PhoneScreen.Banner(t: now.seconds, title: title, body: body, app: app)))
    }

    private func home() -> [PhoneScreen.HomeIcon] {
        device.catalog.homeScreen(installed: device.apps.map(\.bundleIdentifier)).map { bundle in
            PhoneScreen.HomeIcon(
                bundleIdentifier: bundle, name: device.catalog.displayName(of: bundle),
                shielded: ShieldSettings.shieldReason(for: bundle, in: stores.shields.values, catalog: device.catalog) != nil)
        }
    }
}
