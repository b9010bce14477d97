import SimulatediOS

/// The DeviceActivityMonitorExtension (seed 002): where time drives SpendLess, woken by
/// DeviceActivity — never by a timer of its own, which would die with the extension — so both
/// work while the main app is suspended or not running.
///
/// - `spendless_access` starting (its interval starts when the 10-minute access session ends):
///   the session is over and the app is shielded again.
/// - `spendless_waitingList` starting (at the earliest `readyAt` not yet reminded): each item
///   whose 7 days are over gets its reminder notification, and the next one is scheduled.
actor SpendLessMonitor: WorldActor, DeviceActivityMonitor {
    nonisolated let executor: WorldActorExecutor
    private let process: SpendLessProcess

    init(executor: WorldActorExecutor, process: SpendLessProcess) {
        self.executor = executor
        self.process = process
    }

    func intervalDidStart(for activity: String) async throws {
        switch activity {
        case SpendLessKeys.accessActivity: try await process.endAccessSession()
        case SpendLessKeys.waitingListActivity: try await process.remindReadyItems()
        default: break
        }
    }
}
