import SimulatediOS

/// The Phone's user actions (docs/apps/thephone.md, "Intents"). Android's table leaves out what
/// Android needs neither of (docs/apps/thephone.md, "The Android client"): `installAutomation`,
/// `removeAutomation`, `setup.begin` are unknown intents there (-32002).
typealias ThePhoneIntent = AppIntent<ThePhoneMainApp>

extension ThePhoneIntent {
    /// Every intent, in the order of docs/apps/thephone.md, "Intents": the iOS client's table (and
    /// the catalog's).
    static let ios: [ThePhoneIntent] = [
        .named("installAutomation", Automation.self, "[trigger=unlock|lock] [askBeforeRunning=true|false]") { app, input in
            try await app.installAutomation(trigger: input.trigger ?? .unlock, askBeforeRunning: input.askBeforeRunning ?? false)
        },
        .named("removeAutomation", Trigger.self, "[trigger=unlock|lock]") { app, input in
            try await app.removeAutomation(trigger: input.trigger ?? .unlock)
        },
        .named("setup.begin", NoArguments.self) { app, _ in try await app.beginSetup() },
    ] + shared

    /// The Android client's table.
    static let android: [ThePhoneIntent] = shared

    private static let shared: [ThePhoneIntent] = [
        .named("sync", NoArguments.self) { app, _ in try await app.sync() },
        .named("account.signUp", Account.self, "username=NAME") { app, input in try await app.signUp(username: input.username) },
        .named("account.signIn", Account.self, "username=NAME") { app, input in try await app.signIn(username: input.username) },
        .named("group.create", NewGroup.self, "name=NAME [description=TEXT] [isPrivate=true|false]") { app, input in
            try await app.createGroup(name: input.name, description: input.description, isPrivate: input.isPrivate)
        },
        .named("group.join", JoinGroup.self, "code=CODE | groupId=ID") { app, input in
            try await app.joinGroup(code: input.code, groupId: input.groupId)
        },
        .named("group.leave", GroupID.self, "groupId=ID") { app, input in try await app.leaveGroup(groupId: input.groupId) },
        .named("group.leaderboard", GroupID.self, "groupId=ID") { app, input in try await app.leaderboard(groupId: input.groupId) },
        .named(
            "setTemptations", Temptations.self,
            "intensity=off|low|medium|high [enabled=true|false] [quietHours={start:HH:MM,end:HH:MM}|null]"
        ) { app, input in
            try await app.setTemptations(input.preferences)
        },
        .named("data.export", NoArguments.self) { app, _ in try await app.exportData() },
        .named("data.delete", NoArguments.self) { app, _ in try await app.deleteData() },
    ]

    /// `installAutomation`.
    struct Automation: IntentInput {
        var trigger: AutomationTrigger?
        var askBeforeRunning: Bool?
    }

    /// `removeAutomation`.
    struct Trigger: IntentInput {
        var trigger: AutomationTrigger?
    }

    /// `account.signUp` / `account.signIn`: 1 to 30 characters (seed: `username VARCHAR(30)`).
    struct Account: IntentInput {
        var username: String

        func validate() throws(DeviceError) {
            guard (1...30).contains(username.count) else {
                throw .invalidArgument(field: "args.username", reason: "1 to 30 characters")
            }
        }
    }

    /// `group.create`: a name of 1 to 100 characters (seed: `name VARCHAR(100) NOT NULL`).
    struct NewGroup: IntentInput {
        var name: String
        var description: String?
        var isPrivate: Bool?

        func validate() throws(DeviceError) {
            guard (1...100).contains(name.count) else {
                throw .invalidArgument(field: "args.name", reason: "1 to 100 characters")
            }
        }
    }

    /// `group.join`: an invite `code`, or the `groupId` of a public group — one of them.
    struct JoinGroup: IntentInput {
        var code: String?
        var groupId: String?

        func validate() throws(DeviceError) {
            switch (code, groupId) {
            case (let code?, nil):
                guard !code.isEmpty else { throw .invalidArgument(field: "args.code", reason: "must not be empty") }
            case (nil, let groupId?):
                try GroupID(groupId: groupId).validate()
            case (nil, nil):
                throw .invalidArgument(field: "args.code", reason: "an invite code, or groupId of a public group")
            case (_?, _?):
                throw .invalidArgument(field: "args.groupId", reason: "give code or groupId, not both")
            }
        }
    }

    /// `group.leave` / `group.leaderboard`: a group id (a path segment: no `/`).
    struct GroupID: IntentInput {
        var groupId: String

        func validate() throws(DeviceError) {
            guard !groupId.isEmpty, !groupId.contains("/"), !groupId.contains("?"), !groupId.contains("#") else {
                throw .invalidArgument(field: "args.groupId", reason: "a group id")
            }
        }
    }

    /// `setTemptations`: `intensity` `off` (= disabled), `low`, `medium`, `high` (seed's
    /// `FREQUENCY_MAP`); `enabled` defaults to true unless `off` (and may not be true with
    /// `off`); `quietHours` `{"start","end"}` as `HH:MM`, or null / absent for none.
    struct Temptations: IntentInput {
        enum Intensity: String, NamedChoice, Sendable {
            case off, low, medium, high
        }

        struct QuietHours: Decodable, Sendable {
            var start: String
            var end: String
        }

        var enabled: Bool?
        var intensity: Intensity
        var quietHours: QuietHours?

        func validate() throws(DeviceError) {
            if intensity == .off, enabled == true {
                throw .invalidArgument(field: "args.enabled", reason: "intensity off means disabled")
            }
            if let quietHours {
                for (name, time) in [("start", quietHours.start), ("end", quietHours.end)] where !Self.isClockTime(time) {
                    throw .invalidArgument(field: "args.quietHours.\(name)", reason: "HH:MM, 00:00 to 23:59")
                }
            }
        }

        var preferences: TemptationPreferences {
            TemptationPreferences(
                enabled: intensity != .off && (enabled ?? true), intensity: intensity.rawValue,
                quietHours: quietHours.map { TemptationPreferences.QuietHours(start: $0.start, end: $0.end) })
        }

        /// `HH:MM` (seed: `quiet_start TIME -- e.g., 22:00`).
        static func isClockTime(_ text: String) -> Bool {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
                let hours = Int(parts[0]), let minutes = Int(parts[1])
            else { return false }
            return (0..<24).contains(hours) && (0..<60).contains(minutes)
        }
    }
}
