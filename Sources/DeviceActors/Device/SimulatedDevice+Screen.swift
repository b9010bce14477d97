import Foundation
import ScreenRendering
@_spi(Host) import SimulatediOS

/// `device.screen`: what a person holding the device sees now, by the screen's rules
/// (docs/screen.md), which a run's report follows step by step from the trace.
extension SimulatedDevice {
    /// The live device's screen. Read as an observer, as `device.state` reads: looking adds no
    /// trace entry and asks no extension (the shield is the one SpringBoard last drew).
    public func screen() throws(DeviceError) -> PhoneScreen {
        let (springBoard, platform, calendar) = (springBoard, platform, calendar)
        let (sinceInput, sinceUnlock) = notificationsPosted
        let installed = apps.map { (name: $0.name, bundle: $0.bundleIdentifier) }
        return try run {
            let now = platform.now
            let locked = await springBoard.locked
            let foreground = locked ? nil : await springBoard.foregroundApp
            var home: [PhoneScreen.HomeIcon] = []
            for bundle in platform.catalog.homeScreen(installed: installed.map(\.bundle)) {
                let shielded = await platform.managedSettings.shieldReason(for: bundle) != nil
                home.append(.init(bundleIdentifier: bundle, name: platform.catalog.displayName(of: bundle), shielded: shielded))
            }
            var shield: PhoneScreen.Shield?
            if let foreground, await springBoard.shieldShown, let drawn = await springBoard.drawnShields[foreground] {
                shield = PhoneScreen.Shield(app: foreground, configuration: drawn.configuration, source: drawn.source)
            }
            let posted = locked ? sinceUnlock : sinceInput
            let banners = await platform.notifications.list(since: nil).suffix(posted).filter { !$0.silenced }.reversed().map { shown in
                PhoneScreen.Banner(
                    t: shown.t, title: shown.title, body: shown.body,
                    app: platform.catalog.bannerHeader(source: shown.source, installed: installed))
            }
            let face = calendar.screenFace(now)
            return PhoneScreen(
                platform: platform.devicePlatform == .android ? .android : .ios, t: now.seconds, clock: face.clock,
                date: face.date, locked: locked, home: home,
                frontmost: foreground.map { .init(bundleIdentifier: $0, name: platform.catalog.displayName(of: $0)) },
                shield: shield, banners: banners, focusMode: await platform.system.focusModeOn)
        }
    }

    /// How many notifications were delivered (one trace entry each, `notification` or
    /// `notification.push`: the newest of the notification center's list) since the last input
    /// began, and since the phone was last unlocked — after the trace's last `app.state` that
    /// turns `locked` from true to false, or every one the trace holds when it holds no unlock:
    /// what the lock screen lists. One pass over the trace for both.
    private var notificationsPosted: (sinceInput: Int, sinceUnlock: Int) {
        var (locked, sinceInput, sinceUnlock) = (false, 0, 0)
        for entry in trace.recorder.entries(after: 0) {
            switch entry.payload {
            case .appState(let nowLocked, _, _):
                if locked, !nowLocked { sinceUnlock = 0 }
                locked = nowLocked
            case .notification, .push:
                sinceUnlock += 1
                if entry.sequence > lastInputSequence { sinceInput += 1 }
            default:
                break
            }
        }
        return (sinceInput, sinceUnlock)
    }
}

extension PhoneScreen.Shield {
    /// The shield a `shield.shown` effect says was drawn over `app`: the configuration's texts
    /// and look, and who gave them.
    public init(app: String, configuration: ShieldConfiguration, source: ShieldConfigurationSource) {
        let look = configuration.appearance ?? ShieldAppearance()
        self.init(
            app: app, title: configuration.title, subtitle: configuration.subtitle,
            primaryButtonLabel: configuration.primaryButtonLabel, secondaryButtonLabel: configuration.secondaryButtonLabel,
            source: source == .extension ? .extension : .systemDefault, backgroundBlurStyle: look.backgroundBlurStyle,
            backgroundColor: look.backgroundColor, icon: look.icon, titleColor: look.titleColor,
            subtitleColor: look.subtitleColor, primaryButtonLabelColor: look.primaryButtonLabelColor,
            primaryButtonBackgroundColor: look.primaryButtonBackgroundColor,
            secondaryButtonLabelColor: look.secondaryButtonLabelColor)
    }
}

extension CategoryCatalog {
    /// The home screen's apps, in the order drawn: the installed ones in install order, then
    /// every other app of the catalog by display name, then bundle id; websites never.
    public func homeScreen(installed: [String]) -> [String] {
        let others = apps.keys.filter { !installed.contains($0) && WebDomain.domain(ofForegroundName: $0) == nil }
        return installed + others.sorted { (displayName(of: $0), $0) < (displayName(of: $1), $1) }
    }

    /// The app a banner's header names: the installed app whose process posted it (its actor,
    /// `dailylimit.app`, `dailylimit.monitor`), by display name; a push is the primary app's.
    public func bannerHeader(source: String, installed: [(name: String, bundle: String)]) -> String {
        let poster = source == "push" ? installed.first : installed.first { source.hasPrefix($0.name + ".") }
        return poster.map { displayName(of: $0.bundle) } ?? source
    }
}

extension DeviceCalendar {
    /// The status bar's clock (`09:10`) and the lock screen's date (`Monday, January 5`) at
    /// `instant`, in the device's time zone.
    public func screenFace(_ instant: VirtualInstant) -> (clock: String, date: String) {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "HH:mm"
        let clock = formatter.string(from: date(instant))
        formatter.dateFormat = "EEEE, MMMM d"
        return (clock, formatter.string(from: date(instant)))
    }
}
