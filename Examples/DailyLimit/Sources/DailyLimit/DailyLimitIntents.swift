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

/// DailyLimit's user actions as values, for tests: `try device.send(.limitApps([instagram]))`,
/// `ScenarioStep.send(.status)` (docs/sdk.md, "Typed steps").
public struct DailyLimitAction: AppAction {
    public let name: String
    public let input: any Encodable & Sendable
}

extension AppAction where Self == DailyLimitAction {
    /// Limits these apps (one to fifty bundle ids) to the day's minutes.
    public static func limitApps(_ apps: [String]) -> Self { Self(name: "limitApps", input: LimitApps(apps: apps)) }
    /// Lifts the limit and its shield.
    public static var removeLimit: Self { Self(name: "removeLimit", input: NoArguments()) }
    /// What is limited, the limit, today's requests and whether the shield is up.
    public static var status: Self { Self(name: "status", input: NoArguments()) }
}

/// `limitApps`' arguments: one to fifty bundle ids.
struct LimitApps: IntentInput, Encodable {
    var apps: [String]

    func validate() throws(DeviceError) {
        guard (1...50).contains(apps.count) else {
            throw .invalidArgument(field: "args.apps", reason: "one to fifty bundle ids")
        }
    }
}
