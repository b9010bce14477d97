import ScreenRendering

/// `device.screen` for a person: what is on screen, the shield over the app in front as drawn,
/// the shielded apps of the home screen and the banners, newest first.
///
///     screen:   Instagram in front (com.burbn.instagram)
///     clock:    09:10, Monday, January 5
///     shield:   Take a breath
///               Instagram will still be here in a minute.
///     buttons:  [Take a pause]
///     source:   extension
///     shielded: Instagram
///     banners:  (none)
enum ScreenView {
    static func lines(for screen: PhoneScreen) -> [String] {
        var lines = ["screen:   " + place(screen), "clock:    \(screen.clock), \(screen.date)"]
        if screen.platform == .android { lines.append("platform: android") }
        if screen.focusMode { lines.append("focus:    on") }
        if let shield = screen.shield {
            lines.append("shield:   " + shield.title)
            if !shield.subtitle.isEmpty { lines.append("          " + shield.subtitle) }
            let buttons = [shield.primaryButtonLabel] + (shield.secondaryButtonLabel.map { [$0] } ?? [])
            lines.append("buttons:  " + buttons.map { "[\($0)]" }.joined(separator: "  "))
            lines.append("source:   " + shield.source.rawValue)
        }
        let shielded = screen.home.filter(\.shielded).map(\.name)
        lines.append("shielded: " + (shielded.isEmpty ? "(none)" : shielded.joined(separator: ", ")))
        lines.append(screen.banners.isEmpty ? "banners:  (none)" : "banners:")
        for banner in screen.banners {
            let text = banner.body.isEmpty ? banner.title : "\(banner.title): \(banner.body)"
            lines.append("  \(PlainText.scalar(.double(banner.t)))  \(banner.app)  \(text)")
        }
        return lines
    }

    /// The lock screen, the home screen, or the app in front.
    private static func place(_ screen: PhoneScreen) -> String {
        if screen.locked { return "lock screen" }
        guard let app = screen.frontmost else { return "home screen" }
        return app.name == app.bundleIdentifier ? "\(app.name) in front" : "\(app.name) in front (\(app.bundleIdentifier))"
    }
}
