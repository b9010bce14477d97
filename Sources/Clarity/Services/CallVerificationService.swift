import SimulatediOS

/// Seed 000, task 2a `CallVerificationService`, as a pure state machine: the main app feeds it
/// CXCallObserver transitions and the 2-minute timeout, and performs what it returns.
///
/// CXCallObserver tells us: call started, call connected, call ended. It does NOT tell us who
/// was called — we infer from timing (deep-linked within 2 min).
struct CallVerificationService: Codable, Sendable, Equatable {
    enum CallResult: Equatable, Sendable {
        /// Someone picked up, talked.
        case completed(duration: Double)
        /// Rang but no answer / voicemail.
        case attempted
        /// Connected but ≤ 10 seconds.
        case tooShort
        /// Nothing happened within 2 minutes.
        case noCallDetected
    }

    private(set) var pendingChallengeId: String?
    private var callStartTime: Double?
    private var callConnected = false

    /// `watchForCall`: start watching after issuing a challenge (times out after 2 minutes;
    /// the caller schedules ``timeout(challengeId:)`` at `now + callWatchTimeout`).
    mutating func watchForCall(challengeId: String) {
        pendingChallengeId = challengeId
        callStartTime = nil
        callConnected = false
    }

    /// The 2-minute timeout: `.noCallDetected` if still watching for that challenge and no call
    /// has started. The seed's timer does not check for a call in progress, which would fail
    /// every call longer than 2 minutes and make its own 5-minute XP (`longCall5min`)
    /// unreachable; the project reads it as "no call within 120 s" (docs/apps/clarity.md).
    mutating func timeout(challengeId: String) -> CallResult? {
        guard pendingChallengeId == challengeId, callStartTime == nil else { return nil }
        reset()
        return .noCallDetected
    }

    /// `callObserver(_:callChanged:)` at virtual time `now`.
    mutating func callChanged(_ call: CallState, now: Double) -> CallResult? {
        guard pendingChallengeId != nil else { return nil }
        // Outgoing call started dialing
        if call.isOutgoing, !call.hasConnected, !call.hasEnded {
            callStartTime = now
        }
        // Call connected (someone picked up)
        if call.hasConnected, !call.hasEnded {
            callConnected = true
        }
        // Call ended
        guard call.hasEnded, let start = callStartTime else { return nil }
        let duration = now - start
        let result: CallResult
        if callConnected, duration > Double(ProsocialLimits.callMinSeconds) {
            result = .completed(duration: duration)
        } else if callConnected {
            result = .tooShort
        } else {
            result = .attempted  // Rang but no answer — still counts
        }
        reset()
        return result
    }

    private mutating func reset() {
        pendingChallengeId = nil
        callStartTime = nil
        callConnected = false
    }
}
