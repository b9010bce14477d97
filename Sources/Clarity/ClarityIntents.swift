import SimulatediOS

/// Clarity's user actions (`intent`, docs/apps/clarity.md): each one's arguments as a type,
/// decoded strictly and validated before anything runs, and what it does in the main app.
typealias ClarityIntent = AppIntent<ClarityMainApp>

extension ClarityIntent {
    /// Every intent, in the order the docs list them.
    static let all: [ClarityIntent] = [
        .named("selectApps", SelectApps.self, "apps=[bundle ids] [categories=[names]]") { app, input in
            try await app.selectApps(input.apps, categories: input.categories ?? [])
        },
        .named("setImportantContacts", ImportantContacts.self, "contacts=[{id, name, phone}] (at most 5)") { app, input in
            Contacts(contacts: try await app.setImportantContacts(input.contacts).map(\.contactName))
        },
        .named("setProsocial", Toggle.self, "enabled=true|false") { app, input in
            try await app.setProsocial(input.enabled)
            return Done()
        },
        .named("addHomeNetwork", Network.self, "ssid=NAME") { app, input in
            Networks(homeNetworks: try await app.addHomeNetwork(input.ssid))
        },
        .named("removeHomeNetwork", Network.self, "ssid=NAME") { app, input in
            Networks(homeNetworks: try await app.removeHomeNetwork(input.ssid))
        },
        .named("setWiFiGate", WiFiGate.self, "[enabled=true|false] [strictMode=true|false]") { app, input in
            try await app.setWiFiGate(enabled: input.enabled, strictMode: input.strictMode)
            return Done()
        },
        .named("challenge.open", NoArguments.self) { app, _ in
            let challenge = try await app.openChallenge()
            return Opened(
                challengeId: challenge.id, type: challenge.type.rawValue, contactName: challenge.suggestedContactName,
                status: await app.store.profile.verificationStatus.rawValue)
        },
        .named("challenge.skip", NoArguments.self) { app, _ in
            try await app.skipChallenge()
            return Done()
        },
        .named("focus.start", FocusStart.self, "minutes=1…1440 [whitelist=[bundle ids]]") { app, input in
            try await app.startFocusSession(minutes: input.minutes, whitelist: input.whitelist ?? [])
        },
        .named("focus.end", NoArguments.self) { app, _ in try await app.endFocusSession(completed: false) },
        .named("restorePurchases", NoArguments.self) { app, _ in
            Subscription(subscription: try await app.restorePurchases())
        },
        .named("logMood", Mood.self, "mood=1…5") { app, input in try await app.logMood(input.mood) },
    ]

    // MARK: - Arguments

    /// `selectApps`: `apps` (≤ 50, none empty), `categories`.
    struct SelectApps: IntentInput {
        var apps: [String]
        var categories: [String]?

        func validate() throws(DeviceError) {
            for (index, app) in apps.enumerated() where app.isEmpty {
                throw .invalidArgument(field: "args.apps[\(index)]", reason: "must not be empty")
            }
            for (index, category) in (categories ?? []).enumerated() where category.isEmpty {
                throw .invalidArgument(field: "args.categories[\(index)]", reason: "must not be empty")
            }
            guard Set(apps).count <= ManagedSettingsStore.maxApplications else {
                throw .invalidArgument(
                    field: "args.apps", reason: "at most \(ManagedSettingsStore.maxApplications) apps can be shielded")
            }
        }
    }

    /// `setImportantContacts`: `contacts` (≤ 5), each `{id?, name?, phone?}`.
    struct ImportantContacts: IntentInput {
        var contacts: [ClarityMainApp.ContactInput]

        func validate() throws(DeviceError) {
            guard contacts.count <= ProsocialLimits.maxImportantContacts else {
                throw .invalidArgument(
                    field: "args.contacts", reason: "at most \(ProsocialLimits.maxImportantContacts) important contacts")
            }
            for (index, contact) in contacts.enumerated() where contact.id == nil && (contact.name ?? "").isEmpty {
                throw .invalidArgument(field: "args.contacts[\(index)]", reason: "needs an id or a name")
            }
        }
    }

    /// `setProsocial`: `enabled`.
    struct Toggle: IntentInput {
        var enabled: Bool
    }

    /// `addHomeNetwork` / `removeHomeNetwork`: `ssid`, not empty.
    struct Network: IntentInput {
        var ssid: String

        func validate() throws(DeviceError) {
            guard !ssid.isEmpty else { throw .invalidArgument(field: "args.ssid", reason: "must not be empty") }
        }
    }

    /// `setWiFiGate`: `enabled`, `strictMode`, both optional.
    struct WiFiGate: IntentInput {
        var enabled: Bool?
        var strictMode: Bool?
    }

    /// `focus.start`: `minutes` (1–1440), `whitelist`.
    struct FocusStart: IntentInput {
        var minutes: Int
        var whitelist: [String]?

        func validate() throws(DeviceError) {
            guard (1...24 * 60).contains(minutes) else {
                throw .invalidArgument(field: "args.minutes", reason: "1 to 1440 minutes")
            }
        }
    }

    /// `logMood`: `mood` (1–5).
    struct Mood: IntentInput {
        var mood: Int

        func validate() throws(DeviceError) {
            guard (1...5).contains(mood) else { throw .invalidArgument(field: "args.mood", reason: "1 to 5") }
        }
    }

    // MARK: - Results

    private struct Done: Encodable, Sendable { let ok = true }
    private struct Contacts: Encodable, Sendable { let contacts: [String] }
    private struct Networks: Encodable, Sendable { let homeNetworks: [String] }
    private struct Opened: Encodable, Sendable {
        let challengeId: String
        let type: String
        let contactName: String?
        let status: String
    }
    private struct Subscription: Encodable, Sendable { let subscription: String }
}
