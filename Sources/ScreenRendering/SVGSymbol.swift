/// The icons a screen shows, drawn as paths in a 0…1 box (``SVGWriter/shape(_:x:y:size:fill:opacity:part:)``)
/// rather than as emoji, which many fonts (and headless browsers) leave blank: a shield's SF
/// Symbol by a look-alike, the hourglass of a shielded app, Android's navigation buttons.
enum SVGSymbol {
    static let hourglass = "M0.2 0.04h0.6v0.1l-0.22 0.36 0.22 0.36v0.1h-0.6v-0.1l0.22-0.36-0.22-0.36z"
    static let heart = "M0.5 0.9C0.1 0.6 0 0.4 0.1 0.22 0.22 0.02 0.45 0.1 0.5 0.25 0.55 0.1 0.78 0.02 0.9 0.22 1 0.4 0.9 0.6 0.5 0.9z"
    static let star = "M0.5 0.04l0.13 0.3 0.33 0.03-0.25 0.22 0.08 0.33-0.29-0.17-0.29 0.17 0.08-0.33-0.25-0.22 0.33-0.03z"
    static let lock = "M0.2 0.45h0.6v0.5h-0.6zM0.3 0.45v-0.15a0.2 0.2 0 0 1 0.4 0v0.15h-0.08v-0.15a0.12 0.12 0 0 0-0.24 0v0.15z"
    static let moon = "M0.6 0.05a0.45 0.45 0 1 0 0.35 0.6 0.35 0.35 0 1 1-0.35-0.6z"
    static let warning = "M0.5 0.05l0.47 0.85h-0.94zM0.46 0.35h0.08v0.3h-0.08zM0.46 0.72h0.08v0.08h-0.08z"
    static let hand = "M0.25 0.5v-0.3h0.1v0.3h0.05v-0.4h0.1v0.4h0.05v-0.35h0.1v0.35h0.05v-0.25h0.1v0.45c0 0.2-0.12 0.3-0.3 0.3-0.15 0-0.25-0.1-0.3-0.25l-0.1-0.2 0.08-0.05z"
    static let dot = "M0.5 0.05a0.45 0.45 0 1 1-0.001 0z"
    static let back = "M0.75 0.1v0.8l-0.6-0.4z"
    static let recents = "M0.15 0.15h0.7v0.7h-0.7zM0.25 0.25v0.5h0.5v-0.5z"
    static let ring = "M0.5 0.05a0.45 0.45 0 1 1-0.001 0zM0.5 0.17a0.33 0.33 0 1 0 0.001 0z"

    /// A shield's icon: the SF Symbol it names (`hourglass`, `heart.fill`) by the family's
    /// look-alike; the system's hourglass when it names none; a dot for any other symbol.
    static func icon(named name: String?) -> String {
        guard let name else { return hourglass }
        let families: [(String, String)] = [
            ("hourglass", hourglass), ("heart", heart), ("star", star), ("lock", lock), ("moon", moon),
            ("exclamationmark.triangle", warning), ("hand", hand),
        ]
        return families.first { name.hasPrefix($0.0) }?.1 ?? dot
    }
}
