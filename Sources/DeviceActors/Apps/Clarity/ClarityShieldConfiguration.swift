import ExtensionSandbox

/// Clarity's ShieldConfiguration extension (seed 000, task 4g and `ProsocialFrictionDescriptions`).
///
/// Texts by the friction layer in `frictionLevel`, with the contact name from
/// `prosocialContactName` (default "someone"). Task 4g's wording is used for the default name
/// ("Someone would love to hear from you", "Text someone instead", "Call someone you care
/// about"); with a real name, `ProsocialFrictionDescriptions.title` ("Call Mom — for real").
/// Primary "Open Clarity", secondary "I Choose to Continue", always (the user can always continue).
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
        try await makeConfiguration()
    }

    func configuration(shielding application: String, in category: String) async throws -> ShieldConfiguration {
        try await makeConfiguration()
    }

    private func makeConfiguration() async throws -> ShieldConfiguration {
        let sharedDefaults = platform.userDefaults(suiteName: ClarityKeys.appGroup)
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
