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
/// Atomicity (two bypasses at once cost 20 HP; docs/apps/scrollkitty.md, "HP atomicity"):
/// - Within this process: the actor is reentrant at every `await`, and every App Group call is
///   one, so two presses could both read the ledger and both append to what they read. Bypasses
///   are therefore serialized (a FIFO lock, ``enterBypass()``/``leaveBypass()``): the next starts
///   its reads only once the previous one has written.
/// - Across processes: this extension writes only the `bypasses` ledger, which no other process
///   writes, and never the main app's allocation (``Bypass``); a bypass recorded for a selection
///   the main app has since replaced no longer counts. It then writes the seed's `appHealthData`
///   from both, as every writer of a source does (``ScrollKittyProcess/publishHealth(_:)``).
/// The `readModifyWrite` variant drops both: HP is changed in place in `appHealthData`, unguarded.
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
        if process.settings.variant == .readModifyWrite { return try await bypass(application) }
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
        let cat = try await process.cat()
        let id = process.tokenId(of: application)
        guard !cat.isDead, let app = cat.health[id], app.hp > 0 else { return .close }
        let lost = min(ScrollKittyKeys.bypassCost, app.hp)
        let now = process.platform.now
        let minutes = try await process.shieldFrequencyMinutes()
        // Whole seconds: the cooldown's interval starts on a whole second.
        let end = VirtualInstant(seconds: (now.seconds + Double(minutes * 60)).rounded(.up))
        let dies = cat.totalHP - lost == 0
        var bypass = Bypass(
            selection: cat.selection, tokenId: id, lost: lost, at: now.seconds,
            cooldownEndsAt: dies ? now.seconds : end.seconds)
        if process.settings.variant == .readModifyWrite {
            // The seed's way: HP changed in place, read and written with platform calls between.
            var allocation = cat.allocation
            allocation[id]?.hp -= lost
            try await process.setAllocation(allocation)
            bypass.lost = 0
        }
        let ledger = cat.ledgerKept(at: now.seconds) + [bypass]
        try await process.setLedger(ledger)
        try await process.publishHealth(cat.with(ledger: ledger))
        let notifications = process.platform.notificationCenter
        guard !dies else {
            // The cat dies: hard lock on every selected app at once, cooldowns over.
            try await process.stopCooldownMonitoring()
            try await process.applyShields()
            try await notifications.add(
                title: "Lost \(lost) HP", body: "Scroll Kitty has died. All your apps are locked.")
            return .defer
        }
        switch process.settings.variant {
        case .correct, .noNotificationAuth, .readModifyWrite:
            try await process.monitorCooldown(tokenId: id, endsAt: end)
        case .monitorReapplies:
            try await process.monitorCooldownFromNow(tokenId: id, endsAt: end)
        case .extensionTimer:
            // The seed's likely mistake: a timer in this extension, which ends with it.
            process.platform.scheduleAppTimer(after: end.seconds - now.seconds, label: "reshield") {
                [process] in try await process.endCooldown(tokenId: id, stoppingActivity: nil)
            }
        }
        try await process.applyShields()
        let name = process.platform.catalog.displayName(of: application)
        try await notifications.add(
            title: "Lost \(lost) HP",
            body: "\(name): \(app.hp - lost)/\(app.maxHP) HP | Total: \(cat.totalHP - lost) HP. Unlocked for \(minutes) minutes.")
        return .none
    }
}
