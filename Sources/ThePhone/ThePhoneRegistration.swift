import SimulatediOS

extension AppRegistration {
    /// The Phone (APPS.md §4) as a device runs it: settings ``ThePhoneSettings``, a line to its
    /// backend, and an Android client beside the iOS one (§4.7).
    public static let thePhone = AppRegistration(
        description: ThePhoneApp.description, settings: ThePhoneSettings.self, usesBackend: true, platforms: [.ios, .android]
    ) { ThePhoneApp(platform: $0, world: $1, settings: $2) }
}
