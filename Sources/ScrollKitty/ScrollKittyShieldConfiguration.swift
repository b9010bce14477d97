import SimulatediOS

/// The ScrollKittyShield extension (seed 004: "Displays per-app HP (e.g., "Instagram: 15/25 HP |
/// Total: 70 HP") or "Dead" shield"), read fresh from the App Group at every drawing.
///
/// - Alive: subtitle exactly `<App>: <hp>/<maxHP> HP | Total: <totalHP> HP`, `<App>` the
///   catalog's display name; primary `Close`; secondary `Continue` (the bypass), absent for an
///   app at 0 HP (project choice: nothing left to pay).
/// - Dead: a title containing `Dead` and no secondary button.
actor ScrollKittyShieldConfiguration: WorldActor, ShieldConfigurationDataSource {
    nonisolated let executor: WorldActorExecutor
    private let process: ScrollKittyProcess

    static let title = "Scroll Kitty is watching"
    static let deadTitle = "Scroll Kitty is Dead"
    static let deadSubtitle = "Hard lock on all apps. Total: 0 HP"
    static let primaryButtonLabel = "Close"
    static let secondaryButtonLabel = "Continue"

    init(executor: WorldActorExecutor, process: ScrollKittyProcess) {
        self.executor = executor
        self.process = process
    }

    func configuration(shielding application: String) async throws -> ShieldConfiguration {
        let cat = try await process.cat()
        if cat.isDead {
            return ShieldConfiguration(
                title: Self.deadTitle, subtitle: Self.deadSubtitle, primaryButtonLabel: Self.primaryButtonLabel,
                secondaryButtonLabel: nil)
        }
        let total = cat.totalHP
        let app = cat.health[process.tokenId(of: application)] ?? AppHealth(hp: 0, maxHP: 0)
        return ShieldConfiguration(
            title: Self.title,
            subtitle: Self.subtitle(name: process.platform.catalog.displayName(of: application), app: app, totalHP: total),
            primaryButtonLabel: Self.primaryButtonLabel, secondaryButtonLabel: app.hp > 0 ? Self.secondaryButtonLabel : nil)
    }

    func configuration(shielding application: String, in category: String) async throws -> ShieldConfiguration {
        try await configuration(shielding: application)
    }

    /// The seed's per-app line: `Instagram: 15/25 HP | Total: 70 HP`.
    static func subtitle(name: String, app: AppHealth, totalHP: Int) -> String {
        "\(name): \(app.hp)/\(app.maxHP) HP | Total: \(totalHP) HP"
    }
}
