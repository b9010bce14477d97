import SimulatediOS

extension AppRegistration {
    /// The Phone (docs/apps/thephone.md) as a device runs it: settings ``ThePhoneSettings`` (its
    /// `backend` also at the config's top level), its requests answered by `server` (its backend,
    /// a target of its own: an app target sees only the SDK, so the two meet where the apps are
    /// listed) on the instance its `backend` setting names, and an Android client beside the iOS
    /// one (docs/apps/thephone.md#the-android-client).
    public static func thePhone(talkingTo server: ServerRegistration) -> AppRegistration {
        AppRegistration(
            description: ThePhoneApp.description, settings: ThePhoneSettings.self, topLevelSettings: ThePhoneSettings.topLevelDefaults,
            listing: .unclassified("The Phone"), server: server, serverInstance: \.backend, platforms: [.ios, .android]
        ) { ThePhoneApp(platform: $0, executors: $1, settings: $2) }
    }
}
