import Foundation
import SimulatediOS

/// The Phone (seed 001) as the device runs it: the iOS client or the Android client, by the
/// device's `platform` (docs/apps/thephone.md). A main app only: the seed's iOS client uses no
/// Screen Time extension, so the three extension sandboxes keep their defaults (no monitor, the
/// system's shield, `.close`). It talks to The Phone's backend over the simulated network
/// (`api.thephone.app`).
public struct ThePhoneApp: SimulatedApp {
    public let bundleIdentifier = ThePhoneKeys.bundleIdentifier
    public let appGroup = ThePhoneKeys.appGroup
    private let mainApp: ThePhoneMainApp

    public init(platform: Platform, executors: ProcessExecutors, settings: ThePhoneSettings = ThePhoneSettings()) {
        mainApp = ThePhoneMainApp(executors: executors, platform: platform)
    }

    public var intents: IntentTable {
        IntentTable(mainApp.isAndroid ? ThePhoneIntent.android : ThePhoneIntent.ios, on: mainApp)
    }

    /// The seed's `ThePhoneShortcuts` (iOS): `RecordUnlockIntent`, and `RecordLockIntent` (choice).
    public var appShortcuts: [AppShortcut] { mainApp.appShortcuts }

    /// The catalog lists the iOS client's intents (Android's are a subset).
    public static let description = AppDescription(
        name: "thephone", bundleIdentifier: ThePhoneKeys.bundleIdentifier, appGroup: ThePhoneKeys.appGroup,
        available: true, intents: ThePhoneIntent.ios.map(\.description))

    public func launch() async throws { try await mainApp.launch() }

    public func didBecomeActive() async throws { try await mainApp.didBecomeActive() }

    public func processEnded() async { await mainApp.processEnded() }

    public var dataRevision: DataRevision { mainApp.dataRevision }

    public func persistentData() async throws -> Data? { try await mainApp.persistentData() }

    public func restore(from data: Data) async throws { try await mainApp.restore(from: data) }

    public func state() async throws -> any Encodable & Sendable { try await mainApp.state() }

    /// The Android client's `SyncWorker`, the app's only worker.
    public func createWorker(workerClassName: String) -> (any CoroutineWorker)? {
        mainApp.createWorker(workerClassName: workerClassName)
    }
}
