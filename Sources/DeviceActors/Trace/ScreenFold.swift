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
///   by ManagedSettings' own rule (``StoreFold/shields(app:category:)``).
/// - frontmost: the foreground app of the last `app.state` (none when locked), by display name.
/// - shield: when unlocked, an app in front and `app.state` says a shield covers it: the texts,
///   look and source of the last `shield.shown` for that app.
/// - banners: the notifications shown (not while Focus was on, not suppressed) after the last
///   input began, by trace order (several inputs can share one instant), newest first.
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
            (self.locked, self.foregroundApp, self.shieldShown) = (locked, foregroundApp, shieldShown)
        case .focusMode(let on):
            focusMode = on
        case .shieldShown(let app, let configuration, let source):
            drawn[app] = Self.shield(of: app, configuration, source)
        case .notification(let title, let body):
            if !focusMode { show(title: title, body: body, by: entry) }
        case .push(let title, let body, _):
            if !focusMode { show(title: title, body: body, by: entry) }
        default:
            break
        }
    }

    /// The screen now, its banners those shown after trace sequence `inputBegan` (the last
    /// sequence before the last input began).
    public func screen(inputBegan: Int) -> PhoneScreen {
        let front = locked ? nil : foregroundApp
        let shield = front.flatMap { shieldShown ? drawn[$0] : nil }
        return PhoneScreen(
            platform: device.platform, t: now.seconds, clock: clockText(), date: dateText(), locked: locked, home: home(),
            frontmost: front.map { PhoneScreen.Frontmost(bundleIdentifier: $0, name: device.catalog.displayName(of: $0)) },
            shield: shield, banners: shown.filter { $0.sequence > inputBegan }.map(\.banner).reversed(), focusMode: focusMode)
    }

    private mutating func show(title: String, body: String, by entry: TraceEntry<Effect>) {
        let app = device.app(ofActor: entry.actor).map { device.catalog.displayName(of: $0.bundleIdentifier) } ?? entry.actor
        shown.append((entry.sequence, PhoneScreen.Banner(t: now.seconds, title: title, body: body, app: app)))
    }

    private func home() -> [PhoneScreen.HomeIcon] {
        let installed = device.apps.map(\.bundleIdentifier)
        let others = device.catalog.apps.keys
            .filter { !installed.contains($0) && WebDomain.domain(ofForegroundName: $0) == nil }
            .sorted { (device.catalog.displayName(of: $0), $0) < (device.catalog.displayName(of: $1), $1) }
        return (installed + others).map { bundle in
            PhoneScreen.HomeIcon(
                bundleIdentifier: bundle, name: device.catalog.displayName(of: bundle),
                shielded: stores.shields(app: bundle, category: device.catalog.category(of: bundle)))
        }
    }

    private static func shield(of app: String, _ configuration: ShieldConfiguration, _ source: ShieldConfigurationSource)
        -> PhoneScreen.Shield
    {
        let look = configuration.appearance
        return PhoneScreen.Shield(
            app: app, title: configuration.title, subtitle: configuration.subtitle,
            primaryButtonLabel: configuration.primaryButtonLabel, secondaryButtonLabel: configuration.secondaryButtonLabel,
            source: source == .extension ? .extension : .systemDefault, backgroundBlurStyle: look?.backgroundBlurStyle,
            backgroundColor: look?.backgroundColor, icon: look?.icon, titleColor: look?.titleColor,
            subtitleColor: look?.subtitleColor, primaryButtonLabelColor: look?.primaryButtonLabelColor,
            primaryButtonBackgroundColor: look?.primaryButtonBackgroundColor,
            secondaryButtonLabelColor: look?.secondaryButtonLabelColor)
    }

    private static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    private static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    private var local: DateComponents {
        calendar.calendar.dateComponents([.weekday, .month, .day, .hour, .minute], from: calendar.date(now))
    }

    /// `09:10`, as `HH:mm` in the device's zone.
    private func clockText() -> String {
        let parts = local
        let two = { (value: Int?) in String((value ?? 0) + 100).dropFirst() }
        return "\(two(parts.hour)):\(two(parts.minute))"
    }

    /// `Monday, January 5`, as `EEEE, MMMM d` (en_US_POSIX) in the device's zone.
    private func dateText() -> String {
        let parts = local
        return "\(Self.weekdays[(parts.weekday ?? 1) - 1]), \(Self.months[(parts.month ?? 1) - 1]) \(parts.day ?? 1)"
    }
}
