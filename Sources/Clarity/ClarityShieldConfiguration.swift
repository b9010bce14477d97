import SimulatediOS

/// Clarity's ShieldConfiguration extension (seed 000, task 4g and `ProsocialFrictionDescriptions`).
///
/// Which texts depends on which store shields the app:
/// - friction (`friction` or `prosocialFriction`): texts by the layer in `frictionLevel`, with
///   the contact name from `prosocialContactName` (default "someone"). Task 4g's wording for the
///   default name ("Someone would love to hear from you", "Text someone instead", "Call someone
///   you care about"); with a real name, `ProsocialFrictionDescriptions.title` ("Call Mom — for
///   real"). Primary "Open Clarity", secondary "I Choose to Continue", always.
/// - a focus session only: no secondary button (project choice).
/// - the WiFi gate only: secondary "I Choose to Continue" unless strict mode (project choice
///   wording, docs/apps/clarity.md).
actor ClarityShieldConfiguration: WorldActor, ShieldConfigurationDataSource {
    nonisolated let executor: WorldActorExecutor
    private let platform: Platform

    static let primaryButtonLabel = "Open Clarity"
    static let secondaryButtonLabel = "I Choose to Continue"
    static let defaultContactName = "someone"

    init(executor: WorldActorExecutor, platform: Platform) {
        self.executor = executor
        self.platform = platform
    }

    func configuration(shielding application: String) async throws -> ShieldConfiguration {
        try await makeConfiguration(for: application, category: nil)
    }

    func configuration(shielding application: String, in category: String) async throws -> ShieldConfiguration {
        try await makeConfiguration(for: application, category: category)
    }

    private func shields(_ store: String, _ app: String, _ category: String?) async throws -> Bool {
        let settings = try await platform.managedSettingsStore(named: store).shield()
        return settings.applications.contains(app) || settings.applicationCategories.shields(app: app, in: category)
    }

    private func makeConfiguration(for app: String, category: String?) async throws -> ShieldConfiguration {
        let sharedDefaults = platform.userDefaults(suiteName: ClarityKeys.appGroup)
        let byFriction = try await shields(ClarityKeys.frictionStore, app, category)
        let byProsocial = try await shields(ClarityKeys.prosocialFrictionStore, app, category)
        let friction = byFriction || byProsocial
        if !friction, try await shields(ClarityKeys.focusStore, app, category) {
            return ShieldConfiguration(
                title: "Focus session in progress",
                subtitle: "\(platform.catalog.displayName(of: app)) isn't on your focus whitelist.",
                primaryButtonLabel: Self.primaryButtonLabel, secondaryButtonLabel: nil)
        }
        if !friction, try await shields(ClarityKeys.wifiGateStore, app, category) {
            let strict = try await sharedDefaults.bool(forKey: ClarityKeys.wifiGateStrictMode)
            return ShieldConfiguration(
                title: "Not on home WiFi",
                subtitle: "Doomscroll apps only unlock on your home WiFi. Everywhere else, Clarity keeps you present.",
                primaryButtonLabel: Self.primaryButtonLabel, secondaryButtonLabel: strict ? nil : Self.secondaryButtonLabel)
        }
        let layer = try await sharedDefaults.integer(forKey: ClarityKeys.frictionLevel)
        // Read pending challenge contact name from shared defaults
        let contactName =
            try await sharedDefaults.string(forKey: ClarityKeys.prosocialContactName) ?? Self.defaultContactName
        return ShieldConfiguration(
            title: Self.title(layer: layer, contactName: contactName), subtitle: Self.subtitle(layer: layer),
            primaryButtonLabel: Self.primaryButtonLabel, secondaryButtonLabel: Self.secondaryButtonLabel)
    }

    static func title(layer: Int, contactName name: String) -> String {
        let isDefaultName = name == defaultContactName
        switch layer {
        case 1: return "\(name.prefix(1).uppercased())\(name.dropFirst()) would love to hear from you"
        case 2: return "Text \(name) instead"
        case 3: return "What are you looking for?"
        case 4: return isDefaultName ? "Call someone you care about" : "Call \(name) — for real"
        case 5: return "0 texts today. 58 min scrolling."
        default: return "Take a breath"
        }
    }

    static func subtitle(layer: Int) -> String {
        switch layer {
        case 1: "You've been on this app for 5 minutes"
        case 2: "A real connection beats any feed"
        case 3: "Or call someone instead of scrolling"
        case 4: "Have a real conversation"
        case 5: "Type 'I choose to keep scrolling' to continue. Or connect with someone."
        default: "Be intentional"
        }
    }
}
