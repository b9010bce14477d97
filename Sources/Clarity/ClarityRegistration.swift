import SimulatediOS

extension AppRegistration {
    /// Clarity (seed 000) as a device runs it: settings ``ClarityConfig``, also taken from the
    /// config's top level (the older spelling), and its built-in invariants.
    public static let clarity = AppRegistration(
        description: ClarityApp.description, invariants: ClarityInvariants.all, settings: ClarityConfig.self,
        topLevelSettings: ClarityConfig.topLevelDefaults, listing: CategoryCatalog.Entry(name: "Clarity", category: "productivity")
    ) { ClarityApp(platform: $0, executors: $1, config: $2) }
}
