/// `ShieldConfiguration`: the texts of a shield. A nil `secondaryButtonLabel` means the shield
/// has no secondary button.
public struct ShieldConfiguration: Sendable, Hashable, Codable {
    public var title: String
    public var subtitle: String
    public var primaryButtonLabel: String
    public var secondaryButtonLabel: String?

    public init(title: String, subtitle: String, primaryButtonLabel: String, secondaryButtonLabel: String?) {
        self.title = title
        self.subtitle = subtitle
        self.primaryButtonLabel = primaryButtonLabel
        self.secondaryButtonLabel = secondaryButtonLabel
    }

    /// What iOS shows when no ShieldConfiguration extension answers (it was jetsammed or threw).
    /// Project choice (docs/decisions.md): the system shield's wording.
    @_spi(Host) public static func systemDefault(appName: String) -> ShieldConfiguration {
        ShieldConfiguration(
            title: "Restricted", subtitle: "You cannot use \(appName) because it's restricted.",
            primaryButtonLabel: "OK", secondaryButtonLabel: nil)
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
public protocol ShieldConfigurationDataSource: Sendable {
    /// `configuration(shielding:)`: the app is shielded through its token.
    func configuration(shielding application: String) async throws -> ShieldConfiguration
    /// `configuration(shielding:in:)`: the app is shielded through its category.
    func configuration(shielding application: String, in category: String) async throws -> ShieldConfiguration
}

/// `ShieldActionDelegate`: decides what a shield button does.
public protocol ShieldActionDelegate: Sendable {
    func handle(action: ShieldButton, for application: String) async throws -> ShieldActionResponse
}
