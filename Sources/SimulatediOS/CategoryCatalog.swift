/// The device's catalog of apps: bundle id → display name and Screen Time category
/// (docs/platform.md: `communication` holds Messages, Phone and FaceTime). An installed app adds
/// its own bundle as its registration lists it (``AppRegistration/listing``), and config can add
/// apps (`apps: {"<bundle id>": {"name", "category"}}`).
public struct CategoryCatalog: Sendable, Hashable, Codable {
    public struct Entry: Sendable, Hashable, Codable {
        public var name: String
        public var category: String

        public init(name: String, category: String) {
            self.name = name
            self.category = category
        }

        /// An app listed by its name only: category `other`, the one an unlisted app's usage
        /// counts under, so that only the name the home screen and banners show changes (the
        /// seeds name no App Store category).
        public static func unclassified(_ name: String) -> Entry { Entry(name: name, category: "other") }
    }

    public var apps: [String: Entry]

    public static let builtIn = CategoryCatalog(apps: [
        "com.apple.MobileSMS": Entry(name: "Messages", category: "communication"),
        "com.apple.mobilephone": Entry(name: "Phone", category: "communication"),
        "com.apple.facetime": Entry(name: "FaceTime", category: "communication"),
        "com.apple.mobilemail": Entry(name: "Mail", category: "productivity"),
        "com.apple.mobilesafari": Entry(name: "Safari", category: "utilities"),
        "com.burbn.instagram": Entry(name: "Instagram", category: "social"),
        "com.zhiliaoapp.musically": Entry(name: "TikTok", category: "social"),
        "com.atebits.Tweetie2": Entry(name: "X", category: "social"),
        "com.facebook.Facebook": Entry(name: "Facebook", category: "social"),
        "com.reddit.Reddit": Entry(name: "Reddit", category: "social"),
        "com.toyopagroup.picaboo": Entry(name: "Snapchat", category: "social"),
        "com.google.ios.youtube": Entry(name: "YouTube", category: "entertainment"),
        "com.netflix.Netflix": Entry(name: "Netflix", category: "entertainment"),
        "com.amazon.Amazon": Entry(name: "Amazon", category: "shopping"),
        "com.shein.sheinapp": Entry(name: "SHEIN", category: "shopping"),
    ])

    /// The catalog with `extra` entries added over the built-in ones.
    public func merging(_ extra: [String: Entry]) -> CategoryCatalog {
        CategoryCatalog(apps: apps.merging(extra) { _, new in new })
    }

    public func category(of app: String) -> String? { apps[app]?.category }

    /// The name shown to users; an unknown bundle id shows as itself.
    public func displayName(of app: String) -> String { apps[app]?.name ?? WebDomain.domain(ofForegroundName: app) ?? app }
}
