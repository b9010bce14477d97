/// What a person holding the simulated phone sees at one moment: the lock screen or the home
/// screen, the app in front, the shield over it exactly as its configuration says, and the
/// notification banners. A value, so that the daemon's live device (`device.screen`) and a run's
/// report (one screen per step, folded from the trace) describe the same thing the same way, and
/// ``svg()`` draws either (docs/screen.md).
public struct PhoneScreen: Sendable, Hashable, Codable {
    /// Which phone draws it: iOS's lock and home screens, or Android's (The Phone's Android client).
    public enum Platform: String, Sendable, Hashable, Codable {
        case ios
        case android
    }

    public var platform: Platform
    /// The device's virtual time in seconds, and its local wall clock as the status bar shows it
    /// (`09:10`, in the device's time zone).
    public var t: Double
    public var clock: String
    /// The local date under the lock screen's clock (`Monday, January 5`).
    public var date: String
    public var locked: Bool
    /// Every app on the home screen, in the order drawn: the installed Screen Time app(s) first,
    /// then the device's catalog by name, then bundle id. A shielded app is drawn dimmed with an
    /// hourglass; the drawing shows the first ``homeIconsShown``.
    public var home: [HomeIcon]
    /// The app (or website, `web:<domain>`) in front; nil on the home screen.
    public var frontmost: Frontmost?
    /// The shield covering the frontmost app, as drawn; nil when none covers it.
    public var shield: Shield?
    /// The banners on screen: the notifications shown (not silenced by Focus) since the last
    /// input began (by trace order), newest first; on the lock screen, every one since the
    /// phone was last unlocked (the lock screen's list).
    public var banners: [Banner]
    /// iOS Focus mode is on (the status bar shows the moon).
    public var focusMode: Bool

    public init(
        platform: Platform, t: Double, clock: String, date: String, locked: Bool, home: [HomeIcon],
        frontmost: Frontmost?, shield: Shield?, banners: [Banner], focusMode: Bool
    ) {
        self.platform = platform
        self.t = t
        self.clock = clock
        self.date = date
        self.locked = locked
        self.home = home
        self.frontmost = frontmost
        self.shield = shield
        self.banners = banners
        self.focusMode = focusMode
    }

    /// One app icon on the home screen.
    public struct HomeIcon: Sendable, Hashable, Codable {
        public var bundleIdentifier: String
        public var name: String
        /// Some ManagedSettings store shields it: drawn dimmed, with the hourglass.
        public var shielded: Bool

        public init(bundleIdentifier: String, name: String, shielded: Bool) {
            self.bundleIdentifier = bundleIdentifier
            self.name = name
            self.shielded = shielded
        }
    }

    /// The app in front.
    public struct Frontmost: Sendable, Hashable, Codable {
        /// The bundle id, or `web:<domain>` for a website open in Safari.
        public var bundleIdentifier: String
        public var name: String

        public init(bundleIdentifier: String, name: String) {
            self.bundleIdentifier = bundleIdentifier
            self.name = name
        }
    }

    /// A shield as iOS draws it from a `ShieldConfiguration`: its texts, and its look where the
    /// app named one (nil parts are the system's).
    public struct Shield: Sendable, Hashable, Codable {
        /// Who gave the texts: the app's ShieldConfiguration extension, or the system's default
        /// (the extension was jetsammed or threw).
        public enum Source: String, Sendable, Hashable, Codable {
            case `extension`
            case systemDefault
        }

        public var app: String
        public var title: String
        public var subtitle: String
        public var primaryButtonLabel: String
        public var secondaryButtonLabel: String?
        public var source: Source
        public var backgroundBlurStyle: String?
        public var backgroundColor: String?
        public var icon: String?
        public var titleColor: String?
        public var subtitleColor: String?
        public var primaryButtonLabelColor: String?
        public var primaryButtonBackgroundColor: String?
        public var secondaryButtonLabelColor: String?

        public init(
            app: String, title: String, subtitle: String, primaryButtonLabel: String, secondaryButtonLabel: String?,
            source: Source, backgroundBlurStyle: String? = nil, backgroundColor: String? = nil, icon: String? = nil,
            titleColor: String? = nil, subtitleColor: String? = nil, primaryButtonLabelColor: String? = nil,
            primaryButtonBackgroundColor: String? = nil, secondaryButtonLabelColor: String? = nil
        ) {
            self.app = app
            self.title = title
            self.subtitle = subtitle
            self.primaryButtonLabel = primaryButtonLabel
            self.secondaryButtonLabel = secondaryButtonLabel
            self.source = source
            self.backgroundBlurStyle = backgroundBlurStyle
            self.backgroundColor = backgroundColor
            self.icon = icon
            self.titleColor = titleColor
            self.subtitleColor = subtitleColor
            self.primaryButtonLabelColor = primaryButtonLabelColor
            self.primaryButtonBackgroundColor = primaryButtonBackgroundColor
            self.secondaryButtonLabelColor = secondaryButtonLabelColor
        }
    }

    /// A notification banner.
    public struct Banner: Sendable, Hashable, Codable {
        public var t: Double
        public var title: String
        public var body: String
        /// The app that posted it, as the banner's header names it.
        public var app: String

        public init(t: Double, title: String, body: String, app: String) {
            self.t = t
            self.title = title
            self.body = body
            self.app = app
        }
    }
}
