import SimulatediOS

/// Focus sessions (seed 000 "Enhanced Focus Sessions"): every app shielded except the whitelist
/// through the `focus` store, iOS Focus mode on, until the session ends. The free tier has one
/// session a day (task 9e).
extension ClarityMainApp {
    /// `focus.start` (1–1440 minutes, checked by the intent).
    func startFocusSession(minutes: Int, whitelist: [String]) async throws -> FocusSession {
        guard store.activeFocusSession == nil else {
            throw DeviceError.refused(reason: "focusSessionActive", message: "a focus session is already running")
        }
        let startOfToday = platform.calendar.startOfDay(platform.now).seconds
        if !isEntitled, store.focusSessions.contains(where: { $0.startTime >= startOfToday }) {
            throw DeviceError.refused(
                reason: "subscriptionRequired", message: "the free tier has 1 focus session a day")
        }
        let session = FocusSession(id: newID(), startTime: now, plannedMinutes: minutes, whitelist: whitelist.sorted())
        store.focusSessions.append(session)
        changed()
        try await applyFocusShield(session)
        setTimer("focusEnd", after: Double(minutes) * 60) { [self] in _ = try await self.endFocusSession(completed: true) }
        return session
    }

    /// `focus.end` (early) or the planned end.
    @discardableResult
    func endFocusSession(completed: Bool) async throws -> FocusSession {
        guard let index = store.focusSessions.lastIndex(where: { $0.endTime == nil }) else {
            throw DeviceError.refused(reason: "noFocusSession", message: "no focus session is running")
        }
        store.focusSessions[index].endTime = now
        store.focusSessions[index].completed = completed
        changed()
        cancelTimer("focusEnd")
        try await platform.managedSettingsStore(named: ClarityKeys.focusStore).clearAllSettings()
        try await platform.systemServices.setFocusMode(false)
        try await recordTodaySnapshot()
        return store.focusSessions[index]
    }

    private func applyFocusShield(_ session: FocusSession) async throws {
        let allowed = Set(session.whitelist + [ClarityKeys.bundleIdentifier])
        try await platform.managedSettingsStore(named: ClarityKeys.focusStore).setShield(
            applications: [], categories: .all(except: allowed))
        try await platform.systemServices.setFocusMode(true)
    }

    /// After a restart: a session still running gets its end timer back; one past its end ends.
    func rearmFocusSession() async throws {
        guard let session = store.activeFocusSession else { return }
        let end = session.startTime + Double(session.plannedMinutes) * 60
        try await applyFocusShield(session)
        setTimer("focusEnd", after: end - now) { [self] in _ = try await self.endFocusSession(completed: true) }
    }
}
