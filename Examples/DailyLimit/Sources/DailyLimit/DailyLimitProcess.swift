import SimulatediOS

/// What every DailyLimit process (the main app and each extension) is given: the platform, the
/// settings, and handles on the two things the processes share.
struct DailyLimitProcess: Sendable {
    let platform: Platform
    let settings: DailyLimitSettings

    /// `UserDefaults(suiteName: DailyLimitKeys.appGroup)`.
    var sharedDefaults: AppGroupDefaults { platform.userDefaults(suiteName: DailyLimitKeys.appGroup) }
    /// The ManagedSettings store the limit shields through.
    var store: ManagedSettingsStore { platform.managedSettingsStore(named: DailyLimitKeys.store) }

    /// Where today's requests are counted (``DailyLimitKeys``): today's own key, or the shared
    /// counter of the first version.
    var requestsKey: String {
        settings.countRequestsPerDay
            ? DailyLimitKeys.requests(on: platform.calendar.dayKey(platform.now)) : DailyLimitKeys.requestsToday
    }
}
