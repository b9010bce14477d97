import SimulatediOS

extension AppRegistration {
    /// The Phone (docs/apps/thephone.md) as a device runs it: settings ``ThePhoneSettings``, a line
    /// to its backend, and an Android client beside the iOS one
    /// (docs/apps/thephone.md#the-android-client).
    public static let thePhone = AppRegistration(
        description: ThePhoneApp.description, settings: ThePhoneSettings.self, usesBackend: true, platforms: [.ios, .android]
    ) { ThePhoneApp(platform: $0, executors: $1, settings: $2) }
}
