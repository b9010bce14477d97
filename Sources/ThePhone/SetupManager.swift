import SimulatediOS

/// The seed's `SetupManager` ("Setup Verification System"): after the user says the Shortcuts
/// automation is made ("I've completed setup" → `beginVerification()`), a 2-minute window in
/// which an unlock must arrive.
///
/// - `beginVerification()`: `awaitingVerification`, window `[now, now + 120 s]`. The seed counts
///   down with a 1-second `Timer` for its UI and checks when the count reaches 0; here one app
///   timer of 120 s (``ThePhoneKeys/verificationWindowSeconds``) stands for the 120 ticks.
/// - `onUnlockReceived()` ("Called when an unlock event comes in during verification", from
///   `RecordUnlockIntent`): while awaiting ⇒ `verified(now)` at once, timer invalidated.
/// - `checkForVerificationEvent()` at the end of the window: the last unlock inside the window
///   ⇒ `verified`, else `failed(.noEventReceived)`.
/// - `saveVerificationState()`: the verification date is kept (the health monitor's
///   `getVerificationDate()`), and the backend told `verified` (docs/apps/thephone.md, "Setup and
///   tracking health").
///
/// In memory as in the seed (`@StateObject`), except the verification date, which the seed
/// saves: when the system ends the process (`app.terminate`) a window still open is lost with
/// its timer (back to `notStarted`). A daemon restart keeps the window and re-arms its timer.
actor SetupManager: WorldActor {
    nonisolated let executor: WorldActorExecutor
    private let platform: Platform
    private let eventStore: EventStore
    private let reporter: TrackingStatusReporter
    private let revision: DataRevision

    private(set) var state: SetupState = .notStarted {
        didSet {
            guard state != oldValue, !restoring else { return }
            revision.bump()
            var fields: [String: StoredValue] = ["state": .string(state.name)]
            if let reason = state.reason { fields["reason"] = .string(reason.rawValue) }
            platform.signposter.emitEvent("setup", fields)
        }
    }
    /// Set while a snapshot is put back: no signpost, no revision.
    private var restoring = false
    /// Seed: `private var verificationTimer: Timer?`.
    private var verificationTimer: AppTimerID?
    /// Seed: `private var expectedVerificationWindow: ClosedRange<Date>?` (ms since 1970).
    private var expectedVerificationWindow: ClosedRange<Int64>?
    /// What `saveVerificationState()` saved: the last verification's date.
    private(set) var verificationDate: Int64?

    init(executor: WorldActorExecutor, platform: Platform, eventStore: EventStore, reporter: TrackingStatusReporter, revision: DataRevision) {
        self.executor = executor
        self.platform = platform
        self.eventStore = eventStore
        self.reporter = reporter
        self.revision = revision
    }

    /// Seed: `beginVerification()`. A window already open is replaced (its timer cancelled).
    func beginVerification() {
        invalidateTimer()
        // Record the window we're expecting an event in
        let start = platform.currentTimeMillis
        let end = start + Int64(ThePhoneKeys.verificationWindowSeconds * 1000)
        expectedVerificationWindow = start...end
        state = .awaitingVerification
        armTimer(after: ThePhoneKeys.verificationWindowSeconds)
    }

    /// Seed: `checkForVerificationEvent()`, when the countdown reaches 0.
    func checkForVerificationEvent() async {
        invalidateTimer()
        guard case .awaitingVerification = state else { return }
        guard let window = expectedVerificationWindow else {
            state = .failed(.unknown)
            return
        }
        // Check if we received an unlock event in the window
        let lastUnlock = await eventStore.getLastUnlockTimestamp()
        guard case .awaitingVerification = state else { return }  // verified meanwhile
        if let lastUnlock, window.contains(lastUnlock) {
            state = .verified(platform.currentTimeMillis)
            await saveVerificationState()
        } else {
            state = .failed(.noEventReceived)
        }
    }

    /// Seed: `onUnlockReceived()` — "Called when an unlock event comes in during verification".
    func onUnlockReceived() async {
        guard case .awaitingVerification = state else { return }
        invalidateTimer()
        state = .verified(platform.currentTimeMillis)
        await saveVerificationState()
    }

    /// Seed: `saveVerificationState()`: the date kept, the backend told.
    private func saveVerificationState() async {
        verificationDate = state.verifiedAt
        revision.bump()
        await reporter.report(.verified)
    }

    // MARK: - The process

    /// At launch: a window a snapshot kept open gets its timer back (or is checked at once if
    /// it ended while the daemon was down).
    func resume() async {
        guard case .awaitingVerification = state, verificationTimer == nil, let window = expectedVerificationWindow else { return }
        let remaining = window.upperBound - platform.currentTimeMillis
        if remaining > 0 {
            armTimer(after: Double(remaining) / 1000)
        } else {
            await checkForVerificationEvent()
        }
    }

    /// `app.terminate`: the timer died with the process; an open window is lost.
    func processEnded() {
        verificationTimer = nil
        guard case .awaitingVerification = state else { return }
        expectedVerificationWindow = nil
        state = .notStarted
    }

    private func armTimer(after seconds: Double) {
        verificationTimer = platform.scheduleAppTimer(after: seconds, label: "setupVerification") { [weak self] in
            await self?.checkForVerificationEvent()
        }
    }

    private func invalidateTimer() {
        if let verificationTimer { platform.cancelAppTimer(verificationTimer) }
        verificationTimer = nil
    }

    // MARK: - Snapshot

    struct Saved: Codable, Sendable, Equatable {
        let state: String
        let reason: SetupState.FailureReason?
        let verifiedAt: Int64?
        let windowStart: Int64?
        let windowEnd: Int64?
        let verificationDate: Int64?
    }

    var saved: Saved {
        Saved(
            state: state.name, reason: state.reason, verifiedAt: state.verifiedAt,
            windowStart: expectedVerificationWindow?.lowerBound, windowEnd: expectedVerificationWindow?.upperBound,
            verificationDate: verificationDate)
    }

    /// Before launch: no signpost, no timer (``resume()`` arms it).
    func restore(_ saved: Saved) {
        let restored = SetupState(name: saved.state, reason: saved.reason, verifiedAt: saved.verifiedAt)
        if let start = saved.windowStart, let end = saved.windowEnd, start <= end { expectedVerificationWindow = start...end }
        verificationDate = saved.verificationDate
        restoring = true
        state = restored
        restoring = false
    }
}
