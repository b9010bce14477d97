import SimulatediOS

/// What `device.state.app` shows for Clarity (docs/apps/clarity.md).
extension ClarityMainApp {
    struct State: Encodable, Sendable {
        struct Challenge: Encodable, Sendable {
            let id: String
            let type: String
            let contactName: String?
            let contactPhone: String?
            let frictionLayer: Int
            /// What the challenge asks ("Send Mom a quick text").
            let prompt: String?
            /// `idle`, `waitingForAction`, `verified`, `failed`, `callAttempted`, `autoVerified`.
            let status: String
            let xpEarned: Int
            let verificationMethod: String?
            let message: String?
            let skipped: Bool

            enum CodingKeys: String, CodingKey {
                case id, type, contactName, contactPhone, frictionLayer, prompt, status, xpEarned, verificationMethod, message,
                    skipped
            }

            /// Every field present, null when unset (docs/protocol.md lists them).
            func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(id, forKey: .id)
                try c.encode(type, forKey: .type)
                try c.encode(contactName, forKey: .contactName)
                try c.encode(contactPhone, forKey: .contactPhone)
                try c.encode(frictionLayer, forKey: .frictionLayer)
                try c.encode(prompt, forKey: .prompt)
                try c.encode(status, forKey: .status)
                try c.encode(xpEarned, forKey: .xpEarned)
                try c.encode(verificationMethod, forKey: .verificationMethod)
                try c.encode(message, forKey: .message)
                try c.encode(skipped, forKey: .skipped)
            }
        }

        struct Person: Encodable, Sendable {
            let id: String
            let name: String
            let phone: String?
            let timesConnected: Int
            let lastConnectedAt: Double?
        }

        struct WiFiGate: Encodable, Sendable {
            let enabled: Bool
            let strictMode: Bool
            let homeNetworks: [String]
            let onHomeNetwork: Bool
            let overridden: Bool
            let shielding: Bool
        }

        let frictionLevel: Int
        let xp: Int
        let subscription: String
        /// The StoreKit products Clarity sells (`Product.products(for:)`).
        let products: [StoreProduct]
        let trialEndsAt: Double
        let prosocialEnabled: Bool
        let focusActive: Bool
        let focusSession: FocusSession?
        let connectionsToday: Int
        let conversationMinutesToday: Double
        let scrollingMinutesToday: Double
        let today: DailySnapshot
        let history: HistoryCounts
        let challenge: Challenge?
        let importantContacts: [Person]
        let wifiGate: WiFiGate
        let shieldedApps: [String]
        let shieldedCategories: [String]
        let monitoring: Bool

        enum CodingKeys: String, CodingKey {
            case frictionLevel, xp, subscription, products, trialEndsAt, prosocialEnabled, focusActive, focusSession,
                connectionsToday, conversationMinutesToday, scrollingMinutesToday, today, history, challenge,
                importantContacts, wifiGate, shieldedApps, shieldedCategories, monitoring
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(frictionLevel, forKey: .frictionLevel)
            try c.encode(xp, forKey: .xp)
            try c.encode(subscription, forKey: .subscription)
            try c.encode(products, forKey: .products)
            try c.encode(trialEndsAt, forKey: .trialEndsAt)
            try c.encode(prosocialEnabled, forKey: .prosocialEnabled)
            try c.encode(focusActive, forKey: .focusActive)
            try c.encode(focusSession, forKey: .focusSession)
            try c.encode(connectionsToday, forKey: .connectionsToday)
            try c.encode(conversationMinutesToday, forKey: .conversationMinutesToday)
            try c.encode(scrollingMinutesToday, forKey: .scrollingMinutesToday)
            try c.encode(today, forKey: .today)
            try c.encode(history, forKey: .history)
            try c.encode(challenge, forKey: .challenge)
            try c.encode(importantContacts, forKey: .importantContacts)
            try c.encode(wifiGate, forKey: .wifiGate)
            try c.encode(shieldedApps, forKey: .shieldedApps)
            try c.encode(shieldedCategories, forKey: .shieldedCategories)
            try c.encode(monitoring, forKey: .monitoring)
        }
    }

    func state() async throws -> State {
        let selection = FamilyActivitySelectionData.decode(
            try await sharedDefaults.data(forKey: ClarityKeys.shieldedAppsSelection))
        let today = try await todayStats()
        let ssid = try await platform.systemServices.currentSSID()
        let networks = try await homeNetworks
        let challenge = store.currentChallenge.map { challenge in
            State.Challenge(
                id: challenge.id, type: challenge.type.rawValue, contactName: challenge.suggestedContactName,
                contactPhone: challenge.suggestedContactPhone, frictionLayer: challenge.frictionLayer,
                prompt: store.profile.challengePrompt,
                status: store.profile.verificationStatus.rawValue, xpEarned: challenge.xpEarned,
                verificationMethod: challenge.verificationMethod, message: store.profile.lastVerificationMessage,
                skipped: challenge.userSkipped)
        }
        return State(
            frictionLevel: try await sharedDefaults.integer(forKey: ClarityKeys.frictionLevel),
            xp: store.profile.totalXP, subscription: subscriptionLabel,
            products: try await platform.storeKitServices.products(
                for: [Self.monthlyProductId, Self.yearlyProductId]),
            trialEndsAt: trialEndsAt,
            prosocialEnabled: store.profile.prosocialEnabled, focusActive: store.activeFocusSession != nil,
            focusSession: store.activeFocusSession, connectionsToday: today.connections,
            conversationMinutesToday: today.conversationMinutes, scrollingMinutesToday: today.scrollingMinutes,
            today: today, history: historyCounts, challenge: challenge,
            importantContacts: store.importantContacts.map {
                State.Person(
                    id: $0.contactIdentifier, name: $0.contactName, phone: $0.contactPhone,
                    timesConnected: $0.timesConnected, lastConnectedAt: $0.lastConnectedAt)
            },
            wifiGate: State.WiFiGate(
                enabled: try await wifiGateEnabled, strictMode: store.wifiGate.strictMode, homeNetworks: networks,
                onHomeNetwork: ssid.map(networks.contains) ?? false,
                overridden: try await sharedDefaults.bool(forKey: ClarityKeys.wifiGateOverride),
                shielding: try await !platform.managedSettingsStore(named: ClarityKeys.wifiGateStore).shield().isEmpty),
            shieldedApps: selection?.applicationTokens ?? [], shieldedCategories: selection?.categoryTokens ?? [],
            monitoring: try await platform.deviceActivityCenter.activities().contains(ClarityKeys.frictionActivity))
    }
}
