import SimulatediOS

extension AppRegistration {
    /// DailyLimit as a device runs it (docs/sdk.md, "Registering an app"): `TestDevice(app: .dailyLimit)`
    /// in a test, `ClarityDaemon.run(apps: AppRegistration.builtIn + [.dailyLimit])` in a daemon.
    public static let dailyLimit = AppRegistration(description: DailyLimitApp.description, settings: DailyLimitSettings.self) {
        DailyLimitApp(platform: $0, executors: $1, settings: $2)
    }
}
