import SimulatediOS

/// Wallet's user actions: each one's arguments as a type, and what it does in the main app.
typealias WalletIntent = AppIntent<WalletMainApp>

extension WalletIntent {
    static let all: [WalletIntent] = [
        .named("lockApps", LockApps.self, "apps=[bundle ids]") { app, input in try await app.lock(input.apps) },
        .named("earn", Earn.self, "minutes=1..1440") { app, input in try await app.earn(input.minutes) },
        .named("finishWorkout", Earn.self, "minutes=1..1440") { app, input in try await app.finishWorkout(input.minutes) },
        .named("sync", NoArguments.self) { app, _ in try await app.sync() },
        .named("status", NoArguments.self) { app, _ in try await app.status() },
    ]
}

/// Wallet's user actions as values, for tests: `try device.send(.earn(20))`,
/// `ScenarioStep.send(.sync)` (docs/sdk.md, "Typed steps").
public struct WalletAction: AppAction {
    public let name: String
    public let input: any Encodable & Sendable
}

extension AppAction where Self == WalletAction {
    /// Locks these apps (one to fifty bundle ids): each costs minutes to open.
    public static func lockApps(_ apps: [String]) -> Self { Self(name: "lockApps", input: LockApps(apps: apps)) }
    /// Minutes earned on the phone (1 to 1440), kept until the next sync.
    public static func earn(_ minutes: Int) -> Self { Self(name: "earn", input: Earn(minutes: minutes)) }
    /// A workout of `minutes` (1 to 1440) finished: earned at once, synced in the background.
    public static func finishWorkout(_ minutes: Int) -> Self { Self(name: "finishWorkout", input: Earn(minutes: minutes)) }
    /// Sends what was earned to the server and keeps the balance it answers.
    public static var sync: Self { Self(name: "sync", input: NoArguments()) }
    /// The balance last heard, what is pending, and every minute earned and spent.
    public static var status: Self { Self(name: "status", input: NoArguments()) }
}

/// `lockApps`' arguments: one to fifty bundle ids.
struct LockApps: IntentInput, Encodable {
    var apps: [String]

    func validate() throws(DeviceError) {
        guard (1...50).contains(apps.count) else {
            throw .invalidArgument(field: "args.apps", reason: "one to fifty bundle ids")
        }
    }
}

/// `earn`'s arguments: whole minutes, 1 to 1440.
struct Earn: IntentInput, Encodable {
    var minutes: Int

    func validate() throws(DeviceError) {
        guard (1...1_440).contains(minutes) else {
            throw .invalidArgument(field: "args.minutes", reason: "a whole number of minutes, 1 to 1440")
        }
    }
}
