/// The Phone's names (seed 001; docs/apps/thephone.md, "Decisions where the seed is silent").
enum ThePhoneKeys {
    /// Project choice: the seed names no bundle id.
    static let bundleIdentifier = "com.thephone.app"
    /// Project choice. The seed's iOS client uses no Screen Time extension: the group is declared,
    /// nothing is written to it, the three extension sandboxes stay idle.
    static let appGroup = "group.com.thephone.app"
    /// The seed's API server (`ApiClient`), as the simulated network routes it
    /// (`PhoneBackendRoutes`).
    static let apiBaseURL = "https://api.thephone.app"

    /// The App Shortcut the seed's automation runs on every unlock (`struct RecordUnlockIntent:
    /// AppIntent`, "Search for 'The Phone' and select 'Record Unlock'").
    static let recordUnlockShortcut = "RecordUnlockIntent"
    /// Project choice (trigger `lock`): the same intent for "When iPhone is locked".
    static let recordLockShortcut = "RecordLockIntent"

    /// Seed: `let end = start.addingTimeInterval(120) // 2 minute window`.
    static let verificationWindowSeconds = 120.0

    /// Seed (Android): `enqueueUniqueWork("sync", ExistingWorkPolicy.REPLACE, request)`.
    static let syncWorkName = "sync"
    /// Seed (Android): `setBackoffCriteria(BackoffPolicy.EXPONENTIAL, Duration.ofMinutes(1))`.
    static let syncBackoffSeconds = 60.0
    /// Seed (Android): `if (runAttemptCount < 3) Result.retry() else Result.failure()`.
    static let syncMaxRetries = 3
}
