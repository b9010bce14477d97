import SimulatediOS

/// Seed 000, task 2e `ProsocialChallengeEngine`: contact choice, challenge generation and the
/// bookkeeping of each verification result, as pure functions on the store. The main app
/// (``ClarityMainApp``) performs the I/O: deep links, verification services, App Group writes.
struct ProsocialChallengeEngine {
    let platform: Platform
    /// Virtual now, in `t` seconds.
    let now: Double

    private var startOfToday: Double { platform.calendar.startOfDay(platform.now).seconds }

    /// Which of the seed's priorities a contact was picked by (its lists are `lostTouch` and
    /// `notToday`; the last resort is random).
    enum ContactPick: String, Sendable {
        case lostTouch, notToday, random
    }

    /// Select a contact intelligently:
    /// 1. Prefer contacts from "Important People" not contacted in 7+ days
    /// 2. Then any important contact not contacted today
    /// 3. Then random important contact
    func selectContact(from contacts: [ImportantContact], recentLogs: [ConnectionLog]) -> (
        contact: ImportantContact, pick: ContactPick
    )? {
        guard !contacts.isEmpty else { return nil }
        let sevenDaysAgo = now - 7 * 86_400
        let recentIdentifiers = Set(recentLogs.filter { $0.timestamp > sevenDaysAgo }.compactMap(\.contactIdentifier))
        let todayIdentifiers = Set(recentLogs.filter { $0.timestamp > startOfToday }.compactMap(\.contactIdentifier))
        // Priority 1: Not contacted in 7 days
        let lostTouch = contacts.filter { !recentIdentifiers.contains($0.contactIdentifier) }
        if let pick = platform.randomElement(of: lostTouch) { return (pick, .lostTouch) }
        // Priority 2: Not contacted today
        let notToday = contacts.filter { !todayIdentifiers.contains($0.contactIdentifier) }
        if let pick = platform.randomElement(of: notToday) { return (pick, .notToday) }
        // Priority 3: Random
        return platform.randomElement(of: contacts).map { ($0, .random) }
    }

    /// Map friction layer to challenge type: layers 1-2 text-based, 3-4 call-based, 5 long call.
    func challengeType(forLayer layer: Int) -> ChallengeType {
        switch layer {
        case 1, 2: platform.randomElement(of: [ChallengeType.textSomeone, .replyToMessage])!
        case 3, 4, 5: .callSomeone
        default: .textSomeone
        }
    }

    /// 3+ connections today, not counting `callAttempted`.
    func shouldAutoVerify(todayLogs: [ConnectionLog]) -> Bool {
        todayLogs.filter { $0.timestamp > startOfToday && $0.type != .callAttempted }.count
            >= ProsocialLimits.autoVerifyThreshold
    }

    /// `generateChallenge`: a new current challenge for `contact`, status idle; auto-verified at
    /// once (the `alreadyConnected` pass, +5 XP) when the user already connected 3 times today.
    func generateChallenge(
        frictionLayer: Int, targetApp: String, contact: ImportantContact?, store: inout ClarityStore, id: String
    ) {
        let challenge = ProsocialChallenge(
            id: id, issuedAt: now, type: challengeType(forLayer: frictionLayer),
            suggestedContactName: contact?.contactName, suggestedContactIdentifier: contact?.contactIdentifier,
            suggestedContactPhone: contact?.contactPhone, targetApp: targetApp, frictionLayer: frictionLayer)
        store.currentChallenge = challenge
        store.profile.verificationStatus = .idle
        store.profile.lastVerificationMessage = nil
        store.profile.challengePrompt = ProsocialResponses.prompt(
            for: challenge.type, contactName: contact?.contactName, platform: platform)
        if let index = store.importantContacts.firstIndex(where: { $0.contactIdentifier == contact?.contactIdentifier }) {
            store.importantContacts[index].lastSuggestedAt = now
        }
        if shouldAutoVerify(todayLogs: store.connectionLogs) {
            var verified = challenge
            verified.wasVerified = true
            verified.verifiedAt = now
            verified.verificationMethod = "autoVerified"
            verified.xpEarned = ProsocialXP.autoVerifiedBonus
            store.currentChallenge = verified
            store.profile.totalXP += verified.xpEarned
            store.profile.verificationStatus = .autoVerified
            store.profile.lastVerificationMessage = platform.randomElement(of: ProsocialResponses.alreadyConnected)
        }
    }

    /// `handleCallResult`.
    func handle(_ result: CallVerificationService.CallResult, store: inout ClarityStore, logID: String) {
        guard var challenge = store.currentChallenge else { return }
        switch result {
        case .completed(let duration):
            challenge.wasVerified = true
            challenge.verifiedAt = now
            challenge.verificationMethod = "callObserver"
            challenge.xpEarned = duration >= 300 ? ProsocialXP.longCall5min : ProsocialXP.callCompleted
            store.profile.verificationStatus = .verified
            store.profile.lastVerificationMessage = platform.randomElement(of: ProsocialResponses.verified)
            record(.callCompleted, for: challenge, duration: Int(duration), store: &store, logID: logID)
        case .attempted:
            challenge.wasVerified = true  // Attempting counts!
            challenge.verifiedAt = now
            challenge.verificationMethod = "callObserver"
            challenge.xpEarned = ProsocialXP.callAttempted
            store.profile.verificationStatus = .callAttempted
            store.profile.lastVerificationMessage = platform.randomElement(of: ProsocialResponses.callAttempted)
            record(.callAttempted, for: challenge, duration: 0, store: &store, logID: logID)
        case .tooShort:
            challenge.wasVerified = false
            store.profile.verificationStatus = .failed
            store.profile.lastVerificationMessage = platform.randomElement(of: ProsocialResponses.failedCall)
            challenge.failureMessage = store.profile.lastVerificationMessage
        case .noCallDetected:
            challenge.wasVerified = false
            store.profile.verificationStatus = .failed
            store.profile.lastVerificationMessage = platform.randomElement(of: ProsocialResponses.failed)
            challenge.failureMessage = store.profile.lastVerificationMessage
        }
        store.profile.totalXP += challenge.xpEarned
        store.currentChallenge = challenge
    }

    /// `checkTextVerification`, once the monitor extension has set `prosocialChallengeVerified`.
    func markTextVerified(store: inout ClarityStore, logID: String) {
        guard var challenge = store.currentChallenge else { return }
        challenge.wasVerified = true
        challenge.verifiedAt = now
        challenge.verificationMethod = "communicationCategory"
        challenge.xpEarned = ProsocialXP.textSent
        store.profile.totalXP += challenge.xpEarned
        store.profile.verificationStatus = .verified
        store.profile.lastVerificationMessage = platform.randomElement(of: ProsocialResponses.verified)
        store.currentChallenge = challenge
        record(.textSent, for: challenge, duration: 0, store: &store, logID: logID)
    }

    /// `skipChallenge`.
    func skip(store: inout ClarityStore) {
        guard var challenge = store.currentChallenge else { return }
        challenge.userSkipped = true
        store.currentChallenge = challenge
        store.profile.lastVerificationMessage = platform.randomElement(of: ProsocialResponses.skipped)
        store.profile.verificationStatus = .idle
    }

    /// A connection happened: a ConnectionLog, and the contact's times connected / last connected.
    /// The person picked ahead for the next challenge is picked again (the priorities changed).
    private func record(
        _ kind: ConnectionLog.Kind, for challenge: ProsocialChallenge, duration: Int, store: inout ClarityStore,
        logID: String
    ) {
        store.connectionLogs.append(
            ConnectionLog(
                id: logID, timestamp: now, type: kind, contactName: challenge.suggestedContactName,
                contactIdentifier: challenge.suggestedContactIdentifier, durationSeconds: duration,
                challengeId: challenge.id, xpEarned: challenge.xpEarned))
        if let index = store.importantContacts.firstIndex(where: {
            $0.contactIdentifier == challenge.suggestedContactIdentifier
        }) {
            store.importantContacts[index].timesConnected += 1
            store.importantContacts[index].lastConnectedAt = now
        }
        store.profile.nextContactIdentifier = nil
    }
}
