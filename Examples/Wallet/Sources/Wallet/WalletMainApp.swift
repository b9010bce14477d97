import SimulatediOS

/// The main app: where the user picks the apps to lock, earns minutes (a workout, a chore) and
/// syncs them with the server.
actor WalletMainApp: WorldActor {
    nonisolated let executor: WorldActorExecutor
    let process: WalletProcess
    /// A background sync is running (the fixed variant starts one at a time:
    /// ``finishWorkout(_:)``). The main app's memory: gone with its process.
    var backgroundSyncRunning = false
    /// More minutes were earned while the background sync ran: it goes round once more.
    var backgroundSyncAgain = false

    init(executor: WorldActorExecutor, process: WalletProcess) {
        self.executor = executor
        self.process = process
    }

    /// Saves the apps for the extensions, shields them, and monitors the day so that the
    /// monitor shields them again each midnight (an unlock lasts the rest of the day).
    func lock(_ apps: [String]) async throws -> WalletStatus {
        try await process.sharedDefaults.set(.array(apps.map(StoredValue.string)), forKey: WalletKeys.lockedApps)
        try await process.shieldLockedApps()
        try await process.platform.deviceActivityCenter.startMonitoring(
            WalletKeys.activity,
            during: DeviceActivitySchedule(
                intervalStart: DateComponentsSpec(hour: 0, minute: 0, second: 0),
                intervalEnd: DateComponentsSpec(hour: 23, minute: 59, second: 59), repeats: true))
        return try await status()
    }

    /// Minutes earned on the phone: counted here until the next sync sends them.
    func earn(_ minutes: Int) async throws -> WalletStatus {
        let defaults = process.sharedDefaults
        for key in [WalletKeys.pendingMinutes, WalletKeys.earnedMinutes] {
            try await defaults.set(.int(try await defaults.integer(forKey: key) + minutes), forKey: key)
        }
        return try await status()
    }

    /// Sends the minutes earned since the last sync and keeps the balance the server answers;
    /// with nothing to send, only asks the balance. How it sends them is the variant's
    /// (``WalletSettings/Variant``): the naive one reads the balance, then writes it back plus
    /// the minutes, two round trips a spend at the shield can fall between.
    func sync() async throws -> WalletStatus {
        let defaults = process.sharedDefaults
        let api = process.api
        let pending = try await defaults.integer(forKey: WalletKeys.pendingMinutes)
        let answer: WalletAPI.Answer
        if pending == 0 {
            answer = try await api.balance()
        } else {
            switch process.settings.variant {
            case .naive:
                let read = try await api.balance()
                guard case .balance(let current) = read else { throw Self.refusal(read) }
                answer = try await api.putBalance(current + pending)
            case .fixed:
                answer = try await api.earn(pending)
            }
        }
        guard case .balance(let balance) = answer else { throw Self.refusal(answer) }
        // Minutes earned while the request was out stay pending for the next sync.
        let stillPending = try await defaults.integer(forKey: WalletKeys.pendingMinutes) - pending
        try await defaults.set(.int(stillPending), forKey: WalletKeys.pendingMinutes)
        try await defaults.set(.int(balance), forKey: WalletKeys.balance)
        return try await status()
    }

    func status() async throws -> WalletStatus {
        let defaults = process.sharedDefaults
        return WalletStatus(
            variant: process.settings.variant.rawValue,
            lockedApps: try await defaults.stringArray(forKey: WalletKeys.lockedApps) ?? [],
            balance: try await defaults.object(forKey: WalletKeys.balance).flatMap { if case .int(let n) = $0 { n } else { nil } },
            pendingMinutes: try await defaults.integer(forKey: WalletKeys.pendingMinutes),
            earnedMinutes: try await defaults.integer(forKey: WalletKeys.earnedMinutes),
            spentMinutes: try await defaults.integer(forKey: WalletKeys.spentMinutes))
    }

    private static func refusal(_ answer: WalletAPI.Answer) -> DeviceError {
        guard case .refused(let status, let reason) = answer else { return .internalFailure("a balance is not a refusal") }
        return .refused(reason: reason, message: "the wallet's server refused the sync (\(status) \(reason))")
    }
}

/// What the main app shows (`status`, and `device.state`'s `app`).
public struct WalletStatus: Codable, Sendable, Equatable {
    public var variant: String
    public var lockedApps: [String]
    /// The balance the server last answered (nil before the first sync).
    public var balance: Int?
    /// Earned on this phone, not yet synced.
    public var pendingMinutes: Int
    /// Every minute earned on this phone, and every minute the shield spent: once all is
    /// synced, the server's balance is their difference.
    public var earnedMinutes: Int
    public var spentMinutes: Int
}
