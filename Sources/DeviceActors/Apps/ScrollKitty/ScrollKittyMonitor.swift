import ExtensionSandbox
import SimulatediOS

/// The ScrollKittyMonitor extension: where time drives the shields, woken by DeviceActivity
/// (never by a timer of its own; the seed's Critical Issue 2 is the missing trigger).
///
/// - A focus window day's interval starting or ending (`scrollkitty_focus_<weekday>`): the
///   shields are put where the App Group says for this instant (``ScrollKittyProcess/applyShields()``).
/// - A cooldown's activity starting (`scrollkitty_cooldown_<tokenId>`, its interval starts when
///   the cooldown ends): the cooldown is over, the app is shielded again if inside the focus
///   window, and a `Shield Returning` notification is posted (seed 004, Critical Issue 3).
actor ScrollKittyMonitor: WorldActor, DeviceActivityMonitor {
    nonisolated let executor: WorldActorExecutor
    private let process: ScrollKittyProcess

    init(executor: WorldActorExecutor, process: ScrollKittyProcess) {
        self.executor = executor
        self.process = process
    }

    func intervalDidStart(for activity: String) async throws {
        if activity.hasPrefix(ScrollKittyKeys.focusActivityPrefix) {
            try await process.applyShields()
        } else if activity.hasPrefix(ScrollKittyKeys.cooldownActivityPrefix) {
            try await endCooldown(tokenId: String(activity.dropFirst(ScrollKittyKeys.cooldownActivityPrefix.count)), activity: activity)
        }
    }

    func intervalDidEnd(for activity: String) async throws {
        guard activity.hasPrefix(ScrollKittyKeys.focusActivityPrefix) else { return }
        try await process.applyShields()
    }

    private func endCooldown(tokenId id: String, activity: String) async throws {
        try await process.endCooldown(tokenId: id, stoppingActivity: activity)
    }
}
