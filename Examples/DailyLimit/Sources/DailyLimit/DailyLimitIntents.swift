import SimulatediOS

/// DailyLimit's user actions: each one's arguments as a type, and what it does in the main app.
typealias DailyLimitIntent = AppIntent<DailyLimitMainApp>

extension DailyLimitIntent {
    static let all: [DailyLimitIntent] = [
        .named("limitApps", LimitApps.self, "apps=[bundle ids]") { app, input in try await app.limit(input.apps) },
        .named("removeLimit", NoArguments.self) { app, _ in try await app.removeLimit() },
        .named("status", NoArguments.self) { app, _ in try await app.status() },
    ]
}

/// `limitApps`' arguments: one to fifty bundle ids.
struct LimitApps: IntentInput {
    var apps: [String]

    func validate() throws(DeviceError) {
        guard (1...50).contains(apps.count) else {
            throw .invalidArgument(field: "args.apps", reason: "one to fifty bundle ids")
        }
    }
}
