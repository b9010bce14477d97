// Part of the Foqos port (docs/porting-foqos.md); not in the original.

import SimulatediOS

/// Foqos as a device runs it: the main app and its three extensions (FoqosDeviceMonitor,
/// FoqosShieldConfig, FoqosShieldAction), each made fresh per launch by the device.
public struct FoqosApp: SimulatedApp {
  public let bundleIdentifier = FoqosKeys.bundleIdentifier
  public let appGroup = FoqosKeys.appGroup
  private let platform: Platform
  private let mainApp: FoqosMainApp

  public init(platform: Platform, executors: ProcessExecutors) {
    self.platform = platform
    mainApp = FoqosMainApp(executor: executors.makeExecutor(label: "foqos.app"), platform: platform)
  }

  public func makeMonitor(executor: WorldActorExecutor) -> any DeviceActivityMonitor {
    DeviceActivityMonitorExtension(executor: executor, platform: platform)
  }

  public func makeShieldConfiguration(executor: WorldActorExecutor) -> any ShieldConfigurationDataSource {
    ShieldConfigurationExtension(executor: executor, platform: platform)
  }

  public func makeShieldAction(executor: WorldActorExecutor) -> any ShieldActionDelegate {
    ShieldActionExtension(executor: executor)
  }

  public var intents: IntentTable { IntentTable(FoqosIntent.all, on: mainApp) }

  /// How clarityd lists it (`daemon.catalog`, `clarityctl intent --help`) once registered.
  public static let description = AppDescription(
    name: "foqos", bundleIdentifier: FoqosKeys.bundleIdentifier, appGroup: FoqosKeys.appGroup,
    available: true, intents: FoqosIntent.all.map(\.description))

  public func state() async throws -> any Encodable & Sendable { try await mainApp.status() }
}
