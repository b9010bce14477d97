import SimulatediOS

/// Prosocial challenges (seed 000 tasks 2a, 2b, 2e, 4, 5a): important people, challenge issue,
/// deep links and verification by call observation and Communication-category usage.
extension ClarityMainApp {
    /// A contact as the user gives it: by address-book id, or entered by hand.
    struct ContactInput: Sendable, Decodable {
        var id: String?
        var name: String?
        var phone: String?
    }

    /// `setImportantContacts`: replaces the important people (at most 5, checked by the intent).
    /// A contact given with an `id` and a `name` is taken as given (docs/protocol.md's shape; a phone
    /// left out comes from the address book entry with that id, if any); one given by `id` alone
    /// must be in the address book (`contacts.set`), which supplies name and phone; one without
    /// `id` is entered by hand. Stats of contacts that stay are kept.
    func setImportantContacts(_ inputs: [ContactInput]) async throws -> [ImportantContact] {
        let addressBook = try await platform.systemServices.contacts()
        var result: [ImportantContact] = []
        var manualCount = store.profile.manualContactCount
        for (index, input) in inputs.enumerated() {
            let resolved: (identifier: String, name: String, phone: String?)
            let name = input.name.flatMap { $0.isEmpty ? nil : $0 }
            if let id = input.id {
                let entry = addressBook.first { $0.id == id }
                if let name {
                    resolved = (id, name, input.phone ?? entry?.phone)
                } else if let entry {
                    resolved = (entry.id, entry.name, input.phone ?? entry.phone)
                } else {
                    throw DeviceError.invalidArgument(
                        field: "args.contacts[\(index)].id", reason: "not in the address book (give a name to add it as given)")
                }
            } else if let name {
                manualCount += 1
                resolved = ("manual-\(manualCount)", name, input.phone)
            } else {
                throw DeviceError.invalidArgument(field: "args.contacts[\(index)]", reason: "needs an id or a name")
            }
            guard !result.contains(where: { $0.contactIdentifier == resolved.identifier }) else {
                throw DeviceError.invalidArgument(field: "args.contacts[\(index)]", reason: "listed twice")
            }
            let kept = store.importantContacts.first { $0.contactIdentifier == resolved.identifier }
            var contact =
                kept
                ?? ImportantContact(
                    id: newID(), contactIdentifier: resolved.identifier, contactName: resolved.name,
                    contactPhone: resolved.phone, addedAt: now)
            contact.contactName = resolved.name
            contact.contactPhone = resolved.phone
            result.append(contact)
        }
        store.importantContacts = result
        store.profile.manualContactCount = manualCount
        store.profile.nextContactIdentifier = nil
        changed()
        try await syncSharedState()
        return result
    }

    /// `setProsocial`: prosocial challenges on or off (task 7a; a paid feature, task 9e).
    func setProsocial(_ enabled: Bool) async throws {
        if enabled { try requireEntitlement("prosocial challenges") }
        store.profile.prosocialEnabled = enabled
        changed()
        try await syncSharedState()
    }

    /// Prosocial challenges run: enabled, entitled, and someone to suggest.
    var prosocialActive: Bool {
        store.profile.prosocialEnabled && isEntitled && !store.importantContacts.isEmpty
    }

    /// Writes what the extensions must know: `prosocialEnabled`, `prosocialContactName`,
    /// `isSubscribed`, `wifiGateStrictMode`. The name on the shields is the open challenge's
    /// person while a challenge is open (issued, not done or skipped), else the person the next
    /// challenge will suggest, picked ahead so the shield can name them.
    func syncSharedState() async throws {
        try await setShared(.bool(prosocialActive), ClarityKeys.prosocialEnabled)
        try await setShared(.bool(isEntitled), ClarityKeys.isSubscribed)
        try await setShared(.bool(store.wifiGate.strictMode), ClarityKeys.wifiGateStrictMode)
        if prosocialActive {
            let name: String?
            if let open = openChallenge {
                name = open.suggestedContactName
            } else {
                let next = nextContact()
                store.profile.nextContactIdentifier = next?.contactIdentifier
                name = next?.contactName
            }
            if let name { try await setShared(.string(name), ClarityKeys.prosocialContactName) }
        } else if try await sharedDefaults.object(forKey: ClarityKeys.prosocialContactName) != nil {
            try await sharedDefaults.removeObject(forKey: ClarityKeys.prosocialContactName)
        }
    }

    /// The current challenge while it is open: issued, and neither done nor skipped.
    private var openChallenge: ProsocialChallenge? {
        guard let challenge = store.currentChallenge, !challenge.userSkipped, !store.profile.verificationStatus.isDone
        else { return nil }
        return challenge
    }

    /// Writes a shared key only when its value changes (the extensions see no needless writes).
    private func setShared(_ value: StoredValue, _ key: String) async throws {
        guard try await sharedDefaults.object(forKey: key) != value else { return }
        try await sharedDefaults.set(value, forKey: key)
    }

    /// The contact the next challenge suggests: kept while still important, else chosen by the
    /// engine's priorities (traced as `contactPicked`).
    private func nextContact() -> ImportantContact? {
        if let id = store.profile.nextContactIdentifier,
            let kept = store.importantContacts.first(where: { $0.contactIdentifier == id })
        {
            return kept
        }
        guard let (contact, pick) = engine.selectContact(from: store.importantContacts, recentLogs: store.connectionLogs)
        else { return nil }
        signpost(
            "contactPicked",
            ["contactName": .string(contact.contactName), "contactId": .string(contact.contactIdentifier), "pick": .string(pick.rawValue)])
        return contact
    }

    // MARK: - Issuing

    /// Layers 2 and 4 issue a challenge (task 4d) when prosocial challenges are active and no
    /// challenge was issued today for that layer.
    func issueChallengeIfDue() async throws {
        let layer = try await sharedDefaults.integer(forKey: ClarityKeys.frictionLevel)
        guard prosocialActive, let level = FrictionLevel(rawValue: layer), level.isProsocial else { return }
        let startOfToday = platform.calendar.startOfDay(platform.now).seconds
        guard !store.challenges.contains(where: { $0.frictionLayer == layer && $0.issuedAt >= startOfToday }) else {
            return
        }
        try await issueChallenge(layer: layer)
    }

    private func issueChallenge(layer: Int) async throws {
        let selection = FamilyActivitySelectionData.decode(
            try await sharedDefaults.data(forKey: ClarityKeys.shieldedAppsSelection))
        let contact = nextContact()
        engine.generateChallenge(
            frictionLayer: layer, targetApp: selection?.applicationTokens.first ?? "", contact: contact, store: &store,
            id: newID())
        store.profile.nextContactIdentifier = nil
        changed()
        if let challenge = store.currentChallenge {
            var fields: [String: StoredValue] = [
                "challengeId": .string(challenge.id), "type": .string(challenge.type.rawValue), "frictionLayer": .int(layer),
            ]
            fields["contactName"] = challenge.suggestedContactName.map(StoredValue.string)
            fields["prompt"] = store.profile.challengePrompt.map(StoredValue.string)
            signpost("challengeIssued", fields)
            if store.profile.verificationStatus == .autoVerified { traceVerified(challenge) }
        }
        if store.profile.verificationStatus == .autoVerified {
            try await platform.managedSettingsStore(named: ClarityKeys.prosocialFrictionStore).clearAllSettings()
        }
        try await syncSharedState()
    }

    // MARK: - challenge.open / challenge.skip

    /// `challenge.open`: deep-links to Messages (text) or Phone (call) for the current challenge
    /// and starts verification (task 2e `deepLinkToMessages` / `deepLinkToPhone`); "Try Again"
    /// after a failure opens it again. With no open challenge (none yet, skipped or done) at a
    /// prosocial layer, a new one is issued first: the user asks for another. An auto-verified
    /// challenge needs no deep link.
    func openChallenge() async throws -> ProsocialChallenge {
        if store.currentChallenge == nil || store.currentChallenge?.userSkipped == true
            || store.profile.verificationStatus.isDone
        {
            let layer = try await sharedDefaults.integer(forKey: ClarityKeys.frictionLevel)
            guard prosocialActive, FrictionLevel(rawValue: layer)?.isProsocial == true else {
                throw DeviceError.refused(
                    reason: "noChallenge",
                    message: "no prosocial challenge: they come at friction layers 2 and 4 with prosocial challenges on and important contacts set")
            }
            try await issueChallenge(layer: layer)
        }
        guard let challenge = store.currentChallenge else {
            throw DeviceError.refused(reason: "noChallenge", message: "no prosocial challenge")
        }
        guard !store.profile.verificationStatus.isDone else { return challenge }
        let phone = challenge.suggestedContactPhone
        signpost(
            "verificationStarted",
            ["challengeId": .string(challenge.id), "by": .string(challenge.type.isText ? "startTextVerification" : "watchForCall")])
        if challenge.type.isText {
            try await platform.systemServices.open(phone.map { "sms://\($0)" } ?? "sms://")
            try await startTextVerification(challengeId: challenge.id)
        } else {
            try await platform.systemServices.open(phone.map { "tel://\($0)" } ?? "tel://")
            callVerification.watchForCall(challengeId: challenge.id)
            callWatchStartedAt = now
            armCallWatchTimeout(challengeId: challenge.id, after: Double(ProsocialLimits.callWatchTimeout))
        }
        store.profile.verificationStatus = .waitingForAction
        changed()
        return challenge
    }

    /// `challenge.skip` (task 2e `skipChallenge`). Only an open challenge can be skipped: one
    /// already done keeps its status and XP (-32003 `challengeCompleted`), and one already
    /// skipped is no longer there to skip (`noChallenge`). The shields then name the next person.
    func skipChallenge() async throws {
        guard let challenge = store.currentChallenge, !challenge.userSkipped else {
            throw DeviceError.refused(reason: "noChallenge", message: "there is no open challenge to skip")
        }
        guard !store.profile.verificationStatus.isDone else {
            throw DeviceError.refused(
                reason: "challengeCompleted",
                message: "the challenge is already \(store.profile.verificationStatus.rawValue); there is nothing to skip")
        }
        engine.skip(store: &store)
        changed()
        signpost("challengeSkipped", ["challengeId": .string(challenge.id)])
        try await stopVerification()
        try await syncSharedState()
    }

    // MARK: - Text verification (task 2b)

    /// `startTextVerification`: the monitor extension marks the challenge verified when the
    /// Communication category reaches 30 s within the next 15 minutes.
    private func startTextVerification(challengeId: String) async throws {
        let center = platform.deviceActivityCenter
        // Store pending challenge ID for the extension to read
        try await sharedDefaults.set(.string(challengeId), forKey: ClarityKeys.pendingProsocialChallengeId)
        try await sharedDefaults.set(.bool(false), forKey: ClarityKeys.prosocialChallengeVerified)
        let calendar = platform.calendar.calendar
        let nowDate = platform.calendar.date(platform.now)
        let timeout = calendar.date(byAdding: .minute, value: 15, to: nowDate)!
        let start = calendar.dateComponents([.hour, .minute, .second], from: nowDate)
        let end = calendar.dateComponents([.hour, .minute, .second], from: timeout)
        let schedule = DeviceActivitySchedule(
            intervalStart: DateComponentsSpec(hour: start.hour, minute: start.minute, second: start.second),
            intervalEnd: DateComponentsSpec(hour: end.hour, minute: end.minute, second: end.second), repeats: false)
        // Monitor Communication category (Phone, Messages, FaceTime). Threshold: 30 seconds of usage
        let event = DeviceActivityEvent(
            categories: ["communication"], threshold: DateComponentsSpec(second: ProsocialLimits.textMinSeconds))
        // Stop any existing monitoring first
        try await center.stopMonitoring([ClarityKeys.textVerificationActivity])
        let eventName = ClarityKeys.textThresholdEvent(for: challengeId, named: verificationNamesChallenge)
        // The seed prints a failure and carries on.
        try? await center.startMonitoring(ClarityKeys.textVerificationActivity, during: schedule, events: [eventName: event])
    }

    /// `checkTextVerification`: verified once the extension set `prosocialChallengeVerified`.
    func checkTextVerification() async throws {
        guard let challenge = store.currentChallenge, challenge.type.isText,
            store.profile.verificationStatus == .waitingForAction,
            try await sharedDefaults.bool(forKey: ClarityKeys.prosocialChallengeVerified)
        else { return }
        if verificationNamesChallenge {
            guard try await sharedDefaults.string(forKey: ClarityKeys.prosocialVerifiedChallengeId) == challenge.id else { return }
        }
        engine.markTextVerified(store: &store, logID: newID())
        changed()
        if let verified = store.currentChallenge { traceVerified(verified) }
        try await stopVerification()
        try await syncSharedState()
    }

    /// `stopVerification`: stop monitoring and clean up.
    func stopVerification() async throws {
        try await platform.deviceActivityCenter.stopMonitoring([ClarityKeys.textVerificationActivity])
        try await sharedDefaults.removeObject(forKey: ClarityKeys.pendingProsocialChallengeId)
    }

    // MARK: - Call verification (task 2a)

    func armCallWatchTimeout(challengeId: String, after seconds: Double) {
        setTimer("callWatch", after: seconds) { [self] in try await self.callWatchTimedOut(challengeId: challengeId) }
    }

    private func callWatchTimedOut(challengeId: String) async throws {
        guard let result = callVerification.timeout(challengeId: challengeId) else { return }
        callWatchStartedAt = nil
        try await handleCallResult(result)
    }

    /// CXCallObserver delegate.
    func callChanged(_ call: CallState) async throws {
        guard let result = callVerification.callChanged(call, now: now) else { return }
        cancelTimer("callWatch")
        callWatchStartedAt = nil
        try await handleCallResult(result)
    }

    private func handleCallResult(_ result: CallVerificationService.CallResult) async throws {
        engine.handle(result, store: &store, logID: newID())
        changed()
        if let challenge = store.currentChallenge {
            switch result {
            case .completed, .attempted: traceVerified(challenge)
            case .tooShort, .noCallDetected:
                signpost("challengeFailed", ["challengeId": .string(challenge.id), "result": .string(result.name)])
            }
        }
        if store.profile.verificationStatus == .verified || store.profile.verificationStatus == .callAttempted {
            try await platform.managedSettingsStore(named: ClarityKeys.prosocialFrictionStore).clearAllSettings()
        }
        try await syncSharedState()
    }
}

// MARK: - What the app decided, in the trace

extension ClarityMainApp {
    /// Marks one of the app's decisions in the device's trace (kind `app`).
    func signpost(_ event: String, _ fields: [String: StoredValue]) {
        platform.signposter.emitEvent(event, fields)
    }

    /// `challengeVerified` with the status and method the seed sets, then `xpAwarded` when it
    /// earned XP (so "when did I earn 15 XP" is one `trace --kind app` away).
    private func traceVerified(_ challenge: ProsocialChallenge) {
        let method = StoredValue.string(challenge.verificationMethod ?? "")
        signpost(
            "challengeVerified",
            [
                "challengeId": .string(challenge.id), "status": .string(store.profile.verificationStatus.rawValue),
                "verificationMethod": method, "xpEarned": .int(challenge.xpEarned),
            ])
        guard challenge.xpEarned > 0 else { return }
        signpost(
            "xpAwarded",
            [
                "xp": .int(challenge.xpEarned), "totalXP": .int(store.profile.totalXP), "challengeId": .string(challenge.id),
                "verificationMethod": method,
            ])
    }
}

extension CallVerificationService.CallResult {
    /// The seed's case name (`tooShort`, `noCallDetected` …).
    var name: String {
        switch self {
        case .completed: "completed"
        case .attempted: "attempted"
        case .tooShort: "tooShort"
        case .noCallDetected: "noCallDetected"
        }
    }
}

extension VerificationState {
    /// The challenge is over and passed (a new one may come at the next prosocial layer).
    var isDone: Bool { self == .verified || self == .callAttempted || self == .autoVerified }
}
