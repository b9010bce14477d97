/// `ShieldConfiguration`: the texts of a shield. A nil `secondaryButtonLabel` means the shield
/// has no secondary button.
public struct ShieldConfiguration: Sendable, Hashable, Codable {
    public var title: String
    public var subtitle: String
    public var primaryButtonLabel: String
    public var secondaryButtonLabel: String?
    /// How the shield looks beyond its texts (colours, icon, blur), when the app says; nil: the
    /// system's look.
    public var appearance: ShieldAppearance?

    public init(title: String, subtitle: String, primaryButtonLabel: String, secondaryButtonLabel: String?) {
        self.title = title
        self.subtitle = subtitle
        self.primaryButtonLabel = primaryButtonLabel
        self.secondaryButtonLabel = secondaryButtonLabel
    }

    /// iOS's initializer: every part optional, each text a ``Label`` with its colour; colours
    /// and the icon as names the app gives (`"#1C1C1E"`, `"systemIndigo"`, `"hourglass"`). A
    /// missing title or subtitle is empty; a missing primary button is the system's `OK`.
    public init(
        backgroundBlurStyle: String? = nil, backgroundColor: String? = nil, icon: String? = nil, title: Label? = nil,
        subtitle: Label? = nil, primaryButtonLabel: Label? = nil, primaryButtonBackgroundColor: String? = nil,
        secondaryButtonLabel: Label? = nil
    ) {
        self.title = title?.text ?? ""
        self.subtitle = subtitle?.text ?? ""
        self.primaryButtonLabel = primaryButtonLabel?.text ?? "OK"
        self.secondaryButtonLabel = secondaryButtonLabel?.text
        let appearance = ShieldAppearance(
            backgroundBlurStyle: backgroundBlurStyle, backgroundColor: backgroundColor, icon: icon, titleColor: title?.color,
            subtitleColor: subtitle?.color, primaryButtonLabelColor: primaryButtonLabel?.color,
            primaryButtonBackgroundColor: primaryButtonBackgroundColor, secondaryButtonLabelColor: secondaryButtonLabel?.color)
        self.appearance = appearance == ShieldAppearance() ? nil : appearance
    }

    /// `ShieldConfiguration.Label(text:color:)`.
    public struct Label: Sendable, Hashable {
        public var text: String
        public var color: String?

        public init(text: String, color: String? = nil) {
            self.text = text
            self.color = color
        }
    }

    /// What iOS shows when no ShieldConfiguration extension answers (it was jetsammed or threw).
    /// Project choice (docs/decisions.md): the system shield's wording.
    @_spi(Host) public static func systemDefault(appName: String) -> ShieldConfiguration {
        ShieldConfiguration(
            title: "Restricted", subtitle: "You cannot use \(appName) because it's restricted.",
            primaryButtonLabel: "OK", secondaryButtonLabel: nil)
    }
}

/// A shield's look beyond its texts (``ShieldConfiguration/appearance``): each part as the app
/// named it, nil where it left the system's.
public struct ShieldAppearance: Sendable, Hashable, Codable {
    public var backgroundBlurStyle: String?
    public var backgroundColor: String?
    public var icon: String?
    public var titleColor: String?
    public var subtitleColor: String?
    public var primaryButtonLabelColor: String?
    public var primaryButtonBackgroundColor: String?
    public var secondaryButtonLabelColor: String?

    public init(
        backgroundBlurStyle: String? = nil, backgroundColor: String? = nil, icon: String? = nil, titleColor: String? = nil,
        subtitleColor: String? = nil, primaryButtonLabelColor: String? = nil, primaryButtonBackgroundColor: String? = nil,
        secondaryButtonLabelColor: String? = nil
    ) {
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

/// Which code produced the shield's texts.
public enum ShieldConfigurationSource: String, Sendable, Codable {
    /// The app's ShieldConfiguration extension.
    case `extension`
    /// The system's default, because the extension did not answer (jetsam).
    case systemDefault
}

/// A shield button (`ShieldAction.primaryButtonPressed` / `.secondaryButtonPressed`).
public enum ShieldButton: String, Sendable, Codable, CaseIterable {
    case primary
    case secondary
}

/// `ShieldActionResponse`: `.close` closes the app, `.defer` redraws the shield, `.none` does
/// nothing more (docs/platform.md).
public enum ShieldActionResponse: String, Sendable, Codable {
    case none
    case close
    case `defer`
}

/// `ShieldConfigurationDataSource`: asked for a shield's texts when a shielded app opens.
///
/// Each method comes twice: with iOS's objects (`Application`, `ActivityCategory`), as code ported
/// from iOS overrides it, and with the bundle id and category name. The platform calls the first,
/// whose default calls the second; implement either. Without either, the system's shield shows.
public protocol ShieldConfigurationDataSource: Sendable {
    /// `configuration(shielding:)`: the app is shielded through its token.
    func configuration(shielding application: Application) async throws -> ShieldConfiguration
    /// `configuration(shielding:in:)`: the app is shielded through its category.
    func configuration(shielding application: Application, in category: ActivityCategory) async throws -> ShieldConfiguration
    func configuration(shielding application: String) async throws -> ShieldConfiguration
    func configuration(shielding application: String, in category: String) async throws -> ShieldConfiguration
    /// `configuration(shielding:)` for a website in Safari; or its domain (`shieldingWebDomain:`).
    func configuration(shielding webDomain: WebDomain) async throws -> ShieldConfiguration
    func configuration(shieldingWebDomain domain: String) async throws -> ShieldConfiguration
}

extension ShieldConfigurationDataSource {
    public func configuration(shielding application: Application) async throws -> ShieldConfiguration {
        try await configuration(shielding: application.bundleIdentifier ?? "")
    }

    public func configuration(shielding application: Application, in category: ActivityCategory) async throws
        -> ShieldConfiguration
    {
        try await configuration(shielding: application.bundleIdentifier ?? "", in: category.name)
    }

    public func configuration(shielding application: String) async throws -> ShieldConfiguration {
        throw NoShieldConfigurationExtension()
    }

    public func configuration(shielding application: String, in category: String) async throws -> ShieldConfiguration {
        throw NoShieldConfigurationExtension()
    }

    public func configuration(shielding webDomain: WebDomain) async throws -> ShieldConfiguration {
        try await configuration(shieldingWebDomain: webDomain.domain ?? "")
    }

    public func configuration(shieldingWebDomain domain: String) async throws -> ShieldConfiguration {
        throw NoShieldConfigurationExtension()
    }
}

/// `ShieldActionDelegate`: decides what a shield button does. As iOS calls it: with the app's
/// token when a store shields the app by its token, with the category's token when a store
/// shields it through its category, with the website's token for a website. Each token form's
/// default calls the string form (the bundle id; for a category, the app's bundle id; the
/// domain), whose own default closes: implement either.
public protocol ShieldActionDelegate: Sendable {
    func handle(action: ShieldButton, for application: ApplicationToken) async throws -> ShieldActionResponse
    func handle(action: ShieldButton, for category: ActivityCategoryToken, application: String) async throws
        -> ShieldActionResponse
    func handle(action: ShieldButton, for webDomain: WebDomainToken) async throws -> ShieldActionResponse
    func handle(action: ShieldButton, for application: String) async throws -> ShieldActionResponse
    func handle(action: ShieldButton, forWebDomain domain: String) async throws -> ShieldActionResponse
}

extension ShieldActionDelegate {
    public func handle(action: ShieldButton, for application: ApplicationToken) async throws -> ShieldActionResponse {
        try await handle(action: action, for: application.bundleIdentifier)
    }

    /// iOS's `handle(action:for: ActivityCategoryToken, completionHandler:)` has no app; here the
    /// app whose shield was pressed comes beside the category (ignore it to port as is).
    public func handle(action: ShieldButton, for category: ActivityCategoryToken, application: String) async throws
        -> ShieldActionResponse
    {
        try await handle(action: action, for: application)
    }

    public func handle(action: ShieldButton, for webDomain: WebDomainToken) async throws -> ShieldActionResponse {
        try await handle(action: action, forWebDomain: webDomain.domain)
    }

    public func handle(action: ShieldButton, for application: String) async throws -> ShieldActionResponse { .close }

    public func handle(action: ShieldButton, forWebDomain domain: String) async throws -> ShieldActionResponse { .close }
}

/// `Application` (ManagedSettings): the app a shield covers, as a ShieldConfiguration extension
/// is given it: its token, and the bundle id and name iOS may or may not reveal (here always).
public struct Application: Hashable, Sendable {
    public let token: ApplicationToken?
    public let bundleIdentifier: String?
    public let localizedDisplayName: String?

    @_spi(Host) public init(bundleIdentifier: String, localizedDisplayName: String?) {
        token = ApplicationToken(bundleIdentifier: bundleIdentifier)
        self.bundleIdentifier = bundleIdentifier
        self.localizedDisplayName = localizedDisplayName
    }
}

/// `WebDomain` (ManagedSettings): a website a shield covers in Safari, as a ShieldConfiguration
/// extension is given it.
///
/// Where the device names what is frontmost (`app.open`, `shield.press`, `shield.shown`,
/// usage), a website is ``foregroundName(_:)``, `web:<domain>`: `web.open domain=reddit.com` is
/// `app.open app=web:reddit.com` (docs/platform.md, Web domains).
public struct WebDomain: Hashable, Sendable {
    public let token: WebDomainToken?
    public let domain: String?

    @_spi(Host) public init(domain: String) {
        token = WebDomainToken(domain: domain)
        self.domain = domain
    }

    /// The prefix that makes a frontmost name a website's.
    public static let foregroundPrefix = "web:"

    /// `web:<domain>`: how the device names a website open in Safari.
    public static func foregroundName(_ domain: String) -> String { foregroundPrefix + domain }

    /// The domain a frontmost name stands for; nil for an app.
    public static func domain(ofForegroundName name: String) -> String? {
        name.hasPrefix(foregroundPrefix) ? String(name.dropFirst(foregroundPrefix.count)) : nil
    }
}

/// `ActivityCategory`: the category a shield covers an app through.
public struct ActivityCategory: Hashable, Sendable {
    public let token: ActivityCategoryToken?
    public let localizedDisplayName: String?
    /// The category's name here (`social`): what the string callbacks are given.
    public let name: String

    @_spi(Host) public init(name: String) {
        token = ActivityCategoryToken(category: name)
        localizedDisplayName = name.prefix(1).uppercased() + name.dropFirst()
        self.name = name
    }
}
