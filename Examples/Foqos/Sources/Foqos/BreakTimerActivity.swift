// Ported from Foqos, https://github.com/awaseem/foqos (commit f02cf4e4).
// Copyright (c) 2024 Ali Waseem. MIT License: the full notice is in LICENSE-Foqos beside Package.swift.
// Ported onto clarityd's simulated iOS; every changed line is listed in docs/porting-foqos.md.
// Original: Foqos/Models/Timers/BreakTimerActivity.swift.

import Foundation
import SimulatediOS

private let log = Logger(subsystem: "com.foqos.monitor", category: BreakTimerActivity.id)

struct BreakTimerActivity: TimerActivity {
  static let id: String = "BreakScheduleActivity"

  let platform: Platform
  private var appBlocker: AppBlockerUtil { AppBlockerUtil(platform: platform) }
  private var sharedData: SharedData { SharedData(platform: platform) }

  func getDeviceActivityName(from profileId: String) -> DeviceActivityName {
    return DeviceActivityName(rawValue: "\(BreakTimerActivity.id):\(profileId)")
  }

  func getAllBreakTimerActivities(from activities: [DeviceActivityName]) -> [DeviceActivityName] {
    return activities.filter { $0.rawValue.starts(with: BreakTimerActivity.id) }
  }

  func start(for profile: SharedData.ProfileSnapshot) async throws {
    let profileId = profile.id.uuidString

    guard let activeSession = try await sharedData.getActiveSharedSession() else {
      log.info(
        "Start break timer activity for \(profileId), no active session found to start break")
      return
    }

    // Check to make sure the active session is the same as the profile before starting break
    if activeSession.blockedProfileId != profile.id {
      log.info(
        "Start break timer activity for \(profileId), active session profile does not match profile to start break"
      )
      return
    }

    // End restrictions for break, preserving strict mode if enabled
    try await appBlocker.deactivateRestrictionsForBreak(for: profile)

    if activeSession.breakStartTime == nil || activeSession.breakEndTime != nil {
      if profile.allowMultipleBreaks == true {
        try await sharedData.resetBreak()
      }

      let now = platform.currentDate
      try await sharedData.setBreakStartTime(date: now)
    }
  }

  func stop(for profile: SharedData.ProfileSnapshot) async throws {
    let profileId = profile.id.uuidString

    guard let activeSession = try await sharedData.getActiveSharedSession() else {
      log.info(
        "Stop break timer activity for \(profileId), no active session found to stop break")
      return
    }

    // Check to make sure the active session is the same as the profile before stopping the break
    if activeSession.blockedProfileId != profile.id {
      log.info(
        "Stop break timer activity for \(profileId), active session profile does not match profile to start break"
      )
      return
    }

    // Check is a break is active before stopping the break
    if activeSession.breakStartTime != nil && activeSession.breakEndTime == nil {
      // Start restrictions again since break is ended
      try await appBlocker.activateRestrictions(for: profile)

      // Set the break end time
      let now = platform.currentDate
      try await sharedData.endBreak(
        date: now,
        allowMultipleBreaks: profile.allowMultipleBreaks == true,
        totalAllowanceInSeconds: TimeInterval(profile.breakTimeInMinutes * 60)
      )
    }
  }
}
