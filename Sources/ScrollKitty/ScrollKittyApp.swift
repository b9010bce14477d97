import Foundation
import SimulatediOS

/// ScrollKitty (seed 004) as the device runs it: the main app, its three extensions
/// (ScrollKittyMonitor, ScrollKittyShield, ScrollKittyAction) and the intents a user can perform
/// (docs/apps/scrollkitty.md). Its state lives in the App Group, which the device persists.
public struct ScrollKittyApp: SimulatedApp {
    public let bundleIdentifier = ScrollKittyKeys.bundleIdentifier
    public let appGroup = ScrollKittyKeys.appGroup
    private let process: ScrollKittyProcess
    private let mainApp: ScrollKittyMainApp

    public init(platform: Platform, executors: ProcessExecutors, settings: ScrollKittySettings = ScrollKittySettings()) {
        process = ScrollKittyProcess(platform: platform, settings: settings)
        mainApp = ScrollKittyMainApp(executor: executors.makeExecutor(label: "scrollkitty.app"), process: process)
    }

    public func makeMonitor(executor: WorldActorExecutor) -> any DeviceActivityMonitor {
        ScrollKittyMonitor(executor: executor, process: process)
    }

    public func makeShieldConfiguration(executor: WorldActorExecutor) -> any ShieldConfigurationDataSource {
        ScrollKittyShieldConfiguration(executor: executor, process: process)
    }

    public func makeShieldAction(executor: WorldActorExecutor) -> any ShieldActionDelegate {
        ScrollKittyShieldAction(executor: executor, process: process)
    }

    public var intents: IntentTable { IntentTable(ScrollKittyIntent.all, on: mainApp) }

    public static let description = AppDescription(
        name: "scrollkitty", bundleIdentifier: ScrollKittyKeys.bundleIdentifier, appGroup: ScrollKittyKeys.appGroup,
        available: true, intents: ScrollKittyIntent.all.map(\.description))

    public func launch() async throws { try await mainApp.launch() }

    public func state() async throws -> any Encodable & Sendable { try await mainApp.state() }
}
