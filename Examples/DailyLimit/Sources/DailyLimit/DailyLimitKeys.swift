/// Every name DailyLimit shares between its main app and its extensions: on iOS they are separate
/// processes, and the App Group, the ManagedSettings store and the DeviceActivity names are all
/// they have in common.
public enum DailyLimitKeys {
    public static let bundleIdentifier = "com.example.dailylimit"
    public static let appGroup = "group.com.example.dailylimit"

    /// App Group: the limited apps' bundle ids, an array of strings.
    public static let limitedApps = "limitedApps"
    /// App Group: how many times today the user asked for more time at the shield, in the
    /// first version (``DailyLimitSettings/countRequestsPerDay`` off): one counter the shield
    /// action increments and the monitor zeroes when the day ends — a read-modify-write two
    /// processes share, whose race `DailyLimitRaceTests` finds.
    public static let requestsToday = "requestsToday"

    /// App Group: the requests of one local day (`requests.2026-01-05`), as the fixed version
    /// counts them: only the shield action writes it, and a new day is a new key.
    public static func requests(on day: String) -> String { "requests.\(day)" }

    /// The ManagedSettings store the limit shields through.
    public static let store = "dailyLimit"
    /// The daily activity (00:00–23:59:59, repeating) and its event.
    public static let activity = "daily_limit"
    public static let limitReached = "limit_reached"
}
