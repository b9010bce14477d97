/// Every name Wallet shares between its main app and its extensions: on iOS they are separate
/// processes, and the App Group, the ManagedSettings store, the DeviceActivity names and the
/// server are all they have in common.
public enum WalletKeys {
    public static let bundleIdentifier = "com.example.wallet"
    public static let appGroup = "group.com.example.wallet"
    /// The server's API (`WalletServer` answers it).
    public static let apiBase = "https://api.wallet.example"

    /// App Group: the apps that cost minutes to open, an array of bundle ids.
    public static let lockedApps = "lockedApps"
    /// App Group: minutes earned on this phone and not yet synced (main app only).
    public static let pendingMinutes = "pendingMinutes"
    /// App Group: every minute ever earned on this phone (main app only).
    public static let earnedMinutes = "earnedMinutes"
    /// App Group: every minute the shield ever spent (shield action only).
    public static let spentMinutes = "spentMinutes"
    /// App Group: the balance the server last answered, absent before the first answer
    /// (written by whichever process heard it last).
    public static let balance = "balance"

    /// The ManagedSettings store the locked apps are shielded through.
    public static let store = "wallet"
    /// The daily activity (00:00–23:59:59, repeating): each new day the shield comes back.
    public static let activity = "wallet_day"
}
