/// SpendLess's shared names (seed 002; docs/apps/spendless.md). The main app and its three
/// extensions are separate processes: the App Group, the `shopping` store and the DeviceActivity
/// names are all they have in common. Project choices are marked.
enum SpendLessKeys {
    /// Project choice (docs/apps/spendless.md, "App Group keys"): the seed names only the App
    /// Group.
    static let bundleIdentifier = "com.spendless.app"
    /// Seed 002: "All extensions share data via App Groups (`group.com.spendless.data`)".
    static let appGroup = "group.com.spendless.data"

    // App Group keys.
    /// Bool, seed 002 ("Extension sets `interventionTriggered` flag, main app checks on
    /// `scenePhase` active").
    static let interventionTriggered = "interventionTriggered"
    /// The bundle id of the app whose shield was pressed last (project choice). Never removed:
    /// the flag says whether it is still to be handled.
    static let interventionTriggeredApp = "interventionTriggeredApp"
    /// The shopping apps' bundle ids, in selection order (project choice).
    static let selectedApps = "selectedApps"
    /// The shopping categories' names (project choice; `[]` when none).
    static let selectedCategories = "selectedCategories"
    /// The intervention type started next, a ``InterventionType`` raw value (project choice;
    /// absent means `fullFlow`).
    static let interventionType = "interventionType"
    /// `{"app", "endsAt"}` while one app is unshielded, `endsAt` as virtual `t` (project choice).
    static let accessSession = "accessSession"
    /// The seed's `WaitingListItem`s, `[{"id", "name", "price", "addedAt", "readyAt", "reminded"}]`
    /// (project choice: in the App Group, where the monitor reads it for the reminders).
    static let waitingList = "waitingList"
    /// The next waiting-list item's id (project choice; absent means 1).
    static let nextItemId = "nextItemId"
    /// The seed's `GraveyardItem`s, `[{"name", "price", "buriedAt"}]` (project choice).
    static let graveyard = "graveyard"
    /// Interventions finished `resisted` (project choice).
    static let resistedCount = "resistedCount"

    /// The ManagedSettings store (project choice): the selected apps and categories less the app
    /// in an access session.
    static let shoppingStore = "shopping"

    // DeviceActivity names (project choices).
    /// Starts when the access session ends: the monitor shields the app again.
    static let accessActivity = "spendless_access"
    /// Starts at the earliest `readyAt` not yet reminded: the monitor posts the reminders.
    static let waitingListActivity = "spendless_waitingList"

    /// Seed 002: "Temporary access: 10-minute sessions managed by `ShieldSessionManager`".
    static let accessSessionSeconds = 10.0 * 60
    /// Seed 002: "`WaitingListItem` - 7-day waiting period items".
    static let waitingPeriodSeconds = 7.0 * 24 * 3600
    /// DeviceActivity's shortest interval: a wake-up at an instant is an interval starting there.
    static let minimumIntervalSeconds = 15.0 * 60
}
