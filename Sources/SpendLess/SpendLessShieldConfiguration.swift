import SimulatediOS

/// The ShieldConfigurationExtension (seed 002: "Customizes shield appearance"; "Warm and
/// supportive, never clinical or punishing"). Texts are project choices (docs/apps/spendless.md,
/// "Shield"): the title `Take a breath`, the subtitle naming the app, one primary button `Take a
/// pause` (it sets the flag the main app picks up) and no secondary button.
actor SpendLessShieldConfiguration: WorldActor, ShieldConfigurationDataSource {
    nonisolated let executor: WorldActorExecutor
    private let process: SpendLessProcess

    static let title = "Take a breath"
    static let primaryButtonLabel = "Take a pause"

    init(executor: WorldActorExecutor, process: SpendLessProcess) {
        self.executor = executor
        self.process = process
    }

    func configuration(shielding application: String) async throws -> ShieldConfiguration {
        ShieldConfiguration(
            title: Self.title, subtitle: Self.subtitle(name: process.platform.catalog.displayName(of: application)),
            primaryButtonLabel: Self.primaryButtonLabel, secondaryButtonLabel: nil)
    }

    func configuration(shielding application: String, in category: String) async throws -> ShieldConfiguration {
        try await configuration(shielding: application)
    }

    /// `<App> will still be here in a minute. Open SpendLess for a mindful pause.`
    static func subtitle(name: String) -> String {
        "\(name) will still be here in a minute. Open SpendLess for a mindful pause."
    }
}
