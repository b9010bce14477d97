import SimulatediOS

extension AppRegistration {
    /// Make Hay (docs/apps/makehay.md) as a device runs it, settings ``MakeHaySettings``.
    public static let makeHay = AppRegistration(
        description: MakeHayApp.description, settings: MakeHaySettings.self, listing: .unclassified("Make Hay")
    ) {
        MakeHayApp(platform: $0, executors: $1, settings: $2)
    }
}
