import SimulatediOS

extension AppRegistration {
    /// ScrollKitty (docs/apps/scrollkitty.md) as a device runs it, settings
    /// ``ScrollKittySettings``.
    public static let scrollKitty = AppRegistration(
        description: ScrollKittyApp.description, settings: ScrollKittySettings.self, listing: .unclassified("ScrollKitty")
    ) {
        ScrollKittyApp(platform: $0, executors: $1, settings: $2)
    }
}
