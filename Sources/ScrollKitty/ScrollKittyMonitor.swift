import SimulatediOS

/// The ScrollKittyMonitor extension: where time drives the shields, woken by DeviceActivity
/// (never by a timer of its own; the seed's Critical Issue 2 is the missing trigger).
///
/// - A focus window day's interval starting or ending (`scrollkitty_focus_<weekday>`): the
///   shields are put where the App Group says for this instant (``ScrollKittyProcess/applyShields()``).
/// - A cooldown's activity starting (`scrollkitty_cooldown_<tokenId>`, its interval starts when
///   the cooldown ends): the cooldown is over, the app is shielded again if inside the focus
///   window, and a `Shield Returning` notification is posted (seed 004, Critical Issue 3).
/// - With `hpDailyReset`, the day's activity starting at 00:00 (`scrollkitty_day`): the new
///   day's HP is written to `appHealthData` and the shields are put where it says.
/// - The `monitorReapplies` variant: a cooldown's interval starts at the bypass, and its start
///   shields the app again at once; its end ends the cooldown.
actor ScrollKittyMonitor: WorldActor, DeviceActivityMonitor {
    nonisolated let executor: WorldActorExecutor
    private let process: ScrollKittyProcess

    init(executor: WorldActorExecutor, process: ScrollKittyProcess) {
        self.executor = executor
        self.process = process
    }

    func intervalDidStart(for activity: String) async throws {
        if activity == ScrollKittyKeys.dayActivity {
            try await startDay()
        } else if activity.hasPrefix(ScrollKittyKeys.focusActivityPrefix) {
            try await process.applyShields()
        } else if let id = cooldownToken(activity) {
            guard process.settings.variant == .monitorReapplies else {
                return try await process.endCooldown(tokenId: id, stoppingActivity: activity)
            }
            // The seed's likely mistake: every interval start re-applies the shield to every
            // selected app, the one in cooldown too.
            try await process.applyShields(honouringCooldowns: false)
        }
    }

    func intervalDidEnd(for activity: String) async throws {
        if activity.hasPrefix(ScrollKittyKeys.focusActivityPrefix) {
            try await process.applyShields()
        } else if process.settings.variant == .monitorReapplies, let id = cooldownToken(activity) {
            try await process.endCooldown(tokenId: id, stoppingActivity: activity)
        }
    }

    /// With `hpDailyReset`, 00:00: `appHealthData` shows the new day's HP — derived again in the
    /// correct port, written back to every share in the `readModifyWrite` variant, which keeps HP
    /// there and has nothing else to reset — then the shields follow (the hard lock lifted).
    private func startDay() async throws {
        if process.settings.variant == .readModifyWrite {
            try await process.resetHealthInPlace()
        } else {
            let cat = try await process.cat()
            if cat.hasBypassesOfEarlierDays { try await process.publishHealth(cat) }
        }
        try await process.applyShields()
    }

    /// The token of a cooldown's activity (`scrollkitty_cooldown_<tokenId>`).
    private func cooldownToken(_ activity: String) -> String? {
        guard activity.hasPrefix(ScrollKittyKeys.cooldownActivityPrefix) else { return nil }
        return String(activity.dropFirst(ScrollKittyKeys.cooldownActivityPrefix.count))
    }
}
