import Foundation
import SimulatediOS

/// SpendLess (seed 002) as the device runs it: the main app, its three extensions
/// (DeviceActivityMonitorExtension, ShieldConfigurationExtension, ShieldActionExtension) and the
/// intents a user can perform, the PanicButtonWidget among them as `intervention.start`
/// (docs/apps/spendless.md). Its lists and settings live in the App Group, which the device
/// persists; the running intervention lives in the main app's memory, which the device's snapshot
/// keeps.
public struct SpendLessApp: SimulatedApp {
    public let bundleIdentifier = SpendLessKeys.bundleIdentifier
    public let appGroup = SpendLessKeys.appGroup
    private let process: SpendLessProcess
    private let mainApp: SpendLessMainApp

    /// `settings` are only validated: `correct` is the one variant (``SpendLessSettings``).
    public init(platform: Platform, executors: ProcessExecutors, settings: SpendLessSettings = SpendLessSettings()) {
        process = SpendLessProcess(platform: platform)
        mainApp = SpendLessMainApp(executor: executors.makeExecutor(label: "spendless.app"), process: process)
    }

    public func makeMonitor(executor: WorldActorExecutor) -> any DeviceActivityMonitor {
        SpendLessMonitor(executor: executor, process: process)
    }

    public func makeShieldConfiguration(executor: WorldActorExecutor) -> any ShieldConfigurationDataSource {
        SpendLessShieldConfiguration(executor: executor, process: process)
    }

    public func makeShieldAction(executor: WorldActorExecutor) -> any ShieldActionDelegate {
        SpendLessShieldAction(executor: executor, process: process)
    }

    public var intents: IntentTable { IntentTable(SpendLessIntent.all, on: mainApp) }

    public static let description = AppDescription(
        name: "spendless", bundleIdentifier: SpendLessKeys.bundleIdentifier, appGroup: SpendLessKeys.appGroup,
        available: true, intents: SpendLessIntent.all.map(\.description))

    public func launch() async throws { try await mainApp.launch() }

    public func didBecomeActive() async throws { try await mainApp.didBecomeActive() }

    public func processEnded() async { await mainApp.processEnded() }

    public var dataRevision: DataRevision { mainApp.dataRevision }

    public func persistentData() async throws -> Data? { try await mainApp.persistentData() }

    public func restore(from data: Data) async throws { try await mainApp.restore(from: data) }

    public func state() async throws -> any Encodable & Sendable { try await mainApp.state() }
}
