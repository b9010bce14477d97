import ExtensionSandbox
import SimulatediOS

/// The ScrollKittyAction extension (seed 004: "Handles "Continue" tap -> Deducts 10 HP from
/// specific app -> Unblocks App -> Sets Timer").
///
/// - Primary, `Close`: closes the app.
/// - Secondary, `Continue` (the bypass): the app loses `min(10, hp)` HP, a notification says
///   `Lost <n> HP`, and the app is unshielded until now + the shield frequency (its cooldown).
///   The "timer" is a DeviceActivity interval starting at the cooldown's end, which wakes the
///   monitor to shield the app again (``ScrollKittyMonitor``): a timer inside this extension
///   would die with it (the seed's Critical Issue 2). The bypass that takes the total to 0 kills
///   the cat: `isDead`, every selected app shielded in `hardLock`, and nothing unblocked.
///
/// Atomicity (BEHAVIOR.md: two bypasses at once cost 20 HP): this actor is reentrant at every
/// `await`, and every App Group call is one, so two presses handled by this process could both
/// read the same HP and both write it less 10. Bypasses are therefore serialized inside the
/// process (a FIFO lock, ``enterBypass()``/``leaveBypass()``): the next starts its read only
/// once the previous one has written.
/// Races with other processes (the main app's `selectApps`) are not covered.
actor ScrollKittyShieldAction: WorldActor, ShieldActionDelegate {
    nonisolated let executor: WorldActorExecutor
    private let process: ScrollKittyProcess
    /// A bypass is running; the presses waiting for it, in order.
    private var bypassing = false
    private var waitingBypasses: [CheckedContinuation<Void, Never>] = []

    init(executor: WorldActorExecutor, process: ScrollKittyProcess) {
        self.executor = executor
        self.process = process
    }

    func handle(action: ShieldButton, for application: String) async throws -> ShieldActionResponse {
        guard action == .secondary else { return .close }
        await enterBypass()
        defer { leaveBypass() }
        return try await bypass(application)
    }

    /// Returns at once when no bypass runs, else when every earlier one has left.
    private func enterBypass() async {
        guard bypassing else {
            bypassing = true
            return
        }
        await withCheckedContinuation { waitingBypasses.append($0) }
    }

    /// Hands the turn to the next waiting press (it stays taken), or frees it.
    private func leaveBypass() {
        if waitingBypasses.isEmpty {
            bypassing = false
        } else {
            waitingBypasses.removeFirst().resume()
        }
    }

    /// One `Continue`, alone in this process from its first read to its last write.
    private func bypass(_ application: String) async throws -> ShieldActionResponse {
        guard !(try await process.isDead()) else { return .close }
        var health = try await process.health()
        let id = tokenId(of: application)
        guard var app = health[id], app.hp > 0 else { return .close }
        let lost = min(ScrollKittyKeys.bypassCost, app.hp)
        app.hp -= lost
        health[id] = app
        try await process.setHealth(health)
        let total = health.values.reduce(0) { $0 + $1.hp }
        let name = process.platform.catalog.displayName(of: application)
        let notifications = process.platform.notificationCenter
        guard total > 0 else {
            // The cat dies: hard lock on every selected app at once, cooldowns over.
            try await process.sharedDefaults.set(.bool(true), forKey: ScrollKittyKeys.isDead)
            try await process.stopCooldownMonitoring()
            try await process.setCooldowns([:])
            try await process.applyShields()
            try await notifications.add(
                title: "Lost \(lost) HP", body: "Scroll Kitty has died. All your apps are locked.")
            return .defer
        }
        let minutes = try await process.shieldFrequencyMinutes()
        // Whole seconds: the cooldown's interval starts on a whole second.
        let end = VirtualInstant(seconds: (process.platform.now.seconds + Double(minutes * 60)).rounded(.up))
        var cooldowns = try await process.cooldowns()
        cooldowns[id] = end.seconds
        try await process.setCooldowns(cooldowns)
        switch process.settings.variant {
        case .correct:
            try await process.monitorCooldown(tokenId: id, endsAt: end)
        case .extensionTimer:
            // The seed's likely mistake: a timer in this extension, which ends with it.
            process.platform.scheduleAppTimer(after: end.seconds - process.platform.now.seconds, label: "reshield") {
                [process] in try await process.endCooldown(tokenId: id, stoppingActivity: nil)
            }
        }
        try await process.applyShields()
        try await notifications.add(
            title: "Lost \(lost) HP",
            body: "\(name): \(app.hp)/\(app.maxHP) HP | Total: \(total) HP. Unlocked for \(minutes) minutes.")
        return .none
    }
}
