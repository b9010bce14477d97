import Foundation
import SimulatediOS

/// ScrollKitty's main app (seed 004, "Configuration Phase" and the dashboard): the user's
/// settings go to the App Group, where the extensions read them. It keeps nothing of its own:
/// everything persists in the App Group (and the device's stores and activities).
actor ScrollKittyMainApp: WorldActor {
    nonisolated let executor: WorldActorExecutor
    let process: ScrollKittyProcess

    init(executor: WorldActorExecutor, process: ScrollKittyProcess) {
        self.executor = executor
        self.process = process
    }

    private var defaults: AppGroupDefaults { process.sharedDefaults }

    /// Launch: asks to post notifications (seed 004, Critical Issue 3: "Likely missing
    /// Notification permissions or authorization request in the main app flow"), except in the
    /// `noNotificationAuth` variant, which keeps that mistake. An App Group saved before the
    /// allocation had a key of its own (`appHealthData` holding it) gets the key, and
    /// `appHealthData` becomes HP now.
    func launch() async throws {
        if process.settings.variant != .noNotificationAuth {
            try await process.platform.notificationCenter.requestAuthorization()
        }
        let cat = try await process.cat()
        guard process.settings.variant != .readModifyWrite, !cat.derivesHealthData, !cat.allocation.isEmpty else { return }
        try await process.setAllocation(cat.allocation)
        try await process.publishHealth(try await process.cat())
    }

    /// `selectApps`: (re)initialises HP — 100 split over the apps (``AppHealth/split(count:)``)
    /// as a new selection, whose bypasses start afresh — ends every cooldown, monitors the focus
    /// window (and, with `hpDailyReset`, the day) and shields the apps inside it. Refused while
    /// the cat is dead (project choice: the hard lock is final). Writes only the main app's keys
    /// (``Bypass``: one writer per key), then `appHealthData` from them
    /// (``ScrollKittyProcess/publishHealth(_:)``).
    func selectApps(_ apps: [String]) async throws -> ScrollKittyState {
        let cat = try await process.cat()
        guard !cat.isDead else {
            throw DeviceError.refused(reason: "catDead", message: "Scroll Kitty is dead: every app stays hard locked")
        }
        let shares = AppHealth.split(count: apps.count)
        var health: [String: AppHealth] = [:]
        for (app, share) in zip(apps, shares) { health[process.tokenId(of: app)] = share }
        try await process.stopCooldownMonitoring()
        try await defaults.set(.array(apps.map(StoredValue.string)), forKey: ScrollKittyKeys.selectedApps)
        try await process.setAllocation(health)
        try await defaults.set(.int(cat.selection + 1), forKey: ScrollKittyKeys.selection)
        if process.settings.variant != .readModifyWrite { try await process.publishHealth(try await process.cat()) }
        try await process.monitorFocusWindow(try await process.focusWindow())
        if process.settings.hpDailyReset { try await process.monitorDay() }
        try await process.applyShields()
        return try await state()
    }

    /// `setShieldFrequency`: the cooldown after the next bypasses (10–60 minutes).
    func setShieldFrequency(minutes: Int) async throws -> ScrollKittyState {
        try await defaults.set(.int(minutes), forKey: ScrollKittyKeys.shieldFrequencyMinutes)
        return try await state()
    }

    /// `setFocusWindow`: stored, its boundaries monitored, and applied at once.
    func setFocusWindow(_ window: FocusWindow) async throws -> ScrollKittyState {
        try await defaults.set(window.storedValue, forKey: ScrollKittyKeys.focusWindow)
        try await process.monitorFocusWindow(window)
        try await process.applyShields()
        return try await state()
    }

    /// `setDailyLimit`: stored for awareness only; HP is unaffected (seed 004: "HP system is
    /// consistent across all limits").
    func setDailyLimit(hours: Int) async throws -> ScrollKittyState {
        try await defaults.set(.int(hours), forKey: ScrollKittyKeys.dailyLimitHours)
        return try await state()
    }

    /// The dashboard (`device.state.app`, docs/apps/scrollkitty.md#devicestateapp), read from the
    /// App Group and the stores.
    func state() async throws -> ScrollKittyState {
        let platform = process.platform
        let cat = try await process.cat()
        let health = cat.health
        let now = platform.now.seconds
        let shielded = try await process.focusStore.shield().applications
            .union(try await process.hardLockStore.shield().applications)
        let window = try await process.focusWindow()
        let apps = cat.selectedApps.map { app in
            let id = process.tokenId(of: app)
            return ScrollKittyState.App(
                app: app, name: platform.catalog.displayName(of: app), tokenId: id, hp: health[id]?.hp ?? 0,
                maxHP: health[id]?.maxHP ?? 0, shielded: shielded.contains(app),
                cooldownEndsAt: cat.isCooling(id, at: now)
                    ? cat.cooldownEnd(of: id).map { platform.calendar.isoString(VirtualInstant(seconds: $0)) } : nil)
        }
        return ScrollKittyState(
            apps: apps, totalHP: apps.reduce(0) { $0 + $1.hp }, isDead: cat.isDead,
            shieldFrequencyMinutes: try await process.shieldFrequencyMinutes(),
            focusWindow: window, inFocusWindow: window.contains(platform.now, calendar: platform.calendar),
            dailyLimitHours: try await defaults.object(forKey: ScrollKittyKeys.dailyLimitHours)?.intValue,
            notificationsAuthorized: try await platform.notificationCenter.authorizationStatus() == .authorized)
    }
}
