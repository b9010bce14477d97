import SimulatediOS

extension AppRegistration {
    /// SpendLess (docs/apps/spendless.md) as a device runs it, settings ``SpendLessSettings``.
    public static let spendLess = AppRegistration(
        description: SpendLessApp.description, settings: SpendLessSettings.self, listing: .unclassified("SpendLess")
    ) {
        SpendLessApp(platform: $0, executors: $1, settings: $2)
    }
}
