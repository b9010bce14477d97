// Ported from Foqos, https://github.com/awaseem/foqos (commit f02cf4e4).
// Copyright (c) 2024 Ali Waseem. MIT License: the full notice is in LICENSE-Foqos beside Package.swift.
// Ported onto clarityd's simulated iOS; every changed line is listed in docs/porting-foqos.md.
// Original: Foqos/Models/Timers/StrategyTimerActivity.swift.

import SimulatediOS

private let log: Logger = Logger(subsystem: "com.foqos.monitor", category: StrategyTimerActivity.id)

struct StrategyTimerActivity: TimerActivity {
  static let id: String = "StrategyTimerActivity"

  let platform: Platform
  private var appBlocker: AppBlockerUtil { AppBlockerUtil(platform: platform) }
  private var sharedData: SharedData { SharedData(platform: platform) }

  func getDeviceActivityName(from profileId: String) -> DeviceActivityName {
    return DeviceActivityName(rawValue: "\(StrategyTimerActivity.id):\(profileId)")
  }

  func getAllStrategyTimerActivities(from activities: [DeviceActivityName]) -> [DeviceActivityName]
  {
    return activities.filter { $0.rawValue.starts(with: StrategyTimerActivity.id) }
  }

  func start(for profile: SharedData.ProfileSnapshot) async throws {
    let profileId = profile.id.uuidString

    log.info("Start strategy timer activity for \(profileId), profile: \(profileId)")

    if let activeSession = try await sharedData.getActiveSharedSession(),
      activeSession.blockedProfileId != profile.id
    {
      log.info(
        "Start strategy timer activity for \(profileId), active session profile does not match device activity profile, not continuing"
      )
      return
    }

    // No need to create a new active session since this is started in the app itself and session already exists
    // Start restrictions
    try await appBlocker.activateRestrictions(for: profile)
  }

  func stop(for profile: SharedData.ProfileSnapshot) async throws {
    let profileId = profile.id.uuidString

    guard let activeSession = try await sharedData.getActiveSharedSession() else {
      log.info("Stop strategy timer activity for \(profileId), no active session found")
      return
    }

    // Check to make sure the active session is the same as the profile before disabling restrictions
    if activeSession.blockedProfileId != profile.id {
      log.info(
        "Stop strategy timer activity for \(profileId), active session profile does not match device activity profile"
      )
      return
    }

    // End restrictions
    try await appBlocker.deactivateRestrictions()

    // End the active strategy session
    try await sharedData.endActiveSharedSession()
  }
}
