/// Every name DailyLimit shares between its main app and its extensions: on iOS they are separate
/// processes, and the App Group, the ManagedSettings store and the DeviceActivity names are all
/// they have in common.
public enum DailyLimitKeys {
    public static let bundleIdentifier = "com.example.dailylimit"
    public static let appGroup = "group.com.example.dailylimit"

    /// App Group: the limited apps' bundle ids, an array of strings.
    public static let limitedApps = "limitedApps"
    /// App Group: how many times today the user asked for more time at the shield.
    public static let requestsToday = "requestsToday"

    /// The ManagedSettings store the limit shields through.
    public static let store = "dailyLimit"
    /// The daily activity (00:00–23:59:59, repeating) and its event.
    public static let activity = "daily_limit"
    public static let limitReached = "limit_reached"
}
