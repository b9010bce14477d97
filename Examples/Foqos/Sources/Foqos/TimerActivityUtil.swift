// Ported from Foqos, https://github.com/awaseem/foqos (commit f02cf4e4).
// Copyright (c) 2024 Ali Waseem. MIT License: the full notice is in LICENSE-Foqos beside Package.swift.
// Ported onto clarityd's simulated iOS; every changed line is listed in docs/porting-foqos.md.
// Original: Foqos/Models/Timers/TimerActivityUtil.swift.

import SimulatediOS

class TimerActivityUtil {
  static func startTimerActivity(for activity: DeviceActivityName, on platform: Platform) async throws {
    let parts = getTimerParts(from: activity)

    guard let timerActivity = getTimerActivity(for: parts.deviceActivityId, on: platform),
      let profile = try await getProfile(for: timerActivity.profileId(from: activity), on: platform)
    else {
      return
    }

    try await timerActivity.start(for: profile, activityName: activity)
  }

  static func stopTimerActivity(for activity: DeviceActivityName, on platform: Platform) async throws {
    let parts = getTimerParts(from: activity)

    guard let timerActivity = getTimerActivity(for: parts.deviceActivityId, on: platform),
      let profile = try await getProfile(for: timerActivity.profileId(from: activity), on: platform)
    else {
      return
    }

    try await timerActivity.stop(for: profile, activityName: activity)
  }

  private static func getTimerParts(from activity: DeviceActivityName) -> (
    deviceActivityId: String, profileId: String
  ) {
    let activityName = activity.rawValue
    let components = activityName.split(separator: ":", maxSplits: 1)

    // For versions >= 1.24, the activity name format is "type:profileId"
    if components.count == 2 {
      return (deviceActivityId: String(components[0]), profileId: String(components[1]))
    }

    // For versions < 1.24, the activity name format is just "profileId" and only supports schedule timer activity
    // This is to support backward compatibility for older schedules
    return (deviceActivityId: ScheduleTimerActivity.id, profileId: activityName)
  }

  private static func getTimerActivity(for deviceActivityId: String, on platform: Platform) -> TimerActivity? {
    switch deviceActivityId {
    case ScheduleTimerActivity.id:
      return ScheduleTimerActivity(platform: platform)
    case BreakTimerActivity.id:
      return BreakTimerActivity(platform: platform)
    case StrategyTimerActivity.id:
      return StrategyTimerActivity(platform: platform)
    default:
      return nil
    }
  }

  private static func getProfile(for profileId: String, on platform: Platform) async throws -> SharedData.ProfileSnapshot? {
    return try await SharedData(platform: platform).snapshot(for: profileId)
  }
}
