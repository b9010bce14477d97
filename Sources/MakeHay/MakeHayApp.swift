import Foundation
import SimulatediOS

/// Make Hay (seed 003) as the device runs it: a main app only (the seed has no extensions), whose
/// shields lift when the day's health goal is reached (docs/apps/makehay.md).
public struct MakeHayApp: SimulatedApp {
    public let bundleIdentifier = MakeHayKeys.bundleIdentifier
    public let appGroup = MakeHayKeys.appGroup
    private let mainApp: MakeHayMainApp

    public init(platform: Platform, executors: ProcessExecutors, settings: MakeHaySettings = MakeHaySettings()) {
        mainApp = MakeHayMainApp(executor: executors.makeExecutor(label: "makehay.app"), platform: platform)
    }

    public var intents: IntentTable { IntentTable(MakeHayIntent.all, on: mainApp) }

    public static let description = AppDescription(
        name: "makehay", bundleIdentifier: MakeHayKeys.bundleIdentifier, appGroup: MakeHayKeys.appGroup,
        available: true, intents: MakeHayIntent.all.map(\.description))

    public func launch() async throws { try await mainApp.launch() }

    public func didBecomeActive() async throws { try await mainApp.didBecomeActive() }

    public var dataRevision: DataRevision { mainApp.dataRevision }

    public func persistentData() async throws -> Data? { try await mainApp.persistentData() }

    public func restore(from data: Data) async throws { try await mainApp.restore(from: data) }

    public func state() async throws -> any Encodable & Sendable { try await mainApp.state() }
}
