// Ported from Foqos, https://github.com/awaseem/foqos (commit f02cf4e4).
// Copyright (c) 2024 Ali Waseem. MIT License: the full notice is in LICENSE-Foqos beside Package.swift.
// Ported onto clarityd's simulated iOS; every changed line is listed in docs/porting-foqos.md.
// Original: FoqosDeviceMonitor/DeviceActivityMonitorExtension.swift.

import SimulatediOS

private let log = Logger(
  subsystem: "com.foqos.monitor",
  category: "DeviceActivity"
)

// Optionally override any of the functions below.
// Make sure that your class name matches the NSExtensionPrincipalClass in your Info.plist.
actor DeviceActivityMonitorExtension: WorldActor, DeviceActivityMonitor {
  nonisolated let executor: WorldActorExecutor
  private let platform: Platform
  private var appBlocker: AppBlockerUtil { AppBlockerUtil(platform: platform) }

  init(executor: WorldActorExecutor, platform: Platform) {
    self.executor = executor
    self.platform = platform
  }

  func intervalDidStart(for activity: DeviceActivityName) async throws {
    log.info("intervalDidStart for activity: \(activity.rawValue)")
    try await TimerActivityUtil.startTimerActivity(for: activity, on: platform)
  }

  func intervalDidEnd(for activity: DeviceActivityName) async throws {
    log.info("intervalDidEnd for activity: \(activity.rawValue)")
    try await TimerActivityUtil.stopTimerActivity(for: activity, on: platform)
  }
}
