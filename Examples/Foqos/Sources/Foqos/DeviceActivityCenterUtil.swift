// Ported from Foqos, https://github.com/awaseem/foqos (commit f02cf4e4).
// Copyright (c) 2024 Ali Waseem. MIT License: the full notice is in LICENSE-Foqos beside Package.swift.
// Ported onto clarityd's simulated iOS; every changed line is listed in docs/porting-foqos.md.
// Original: Foqos/Utils/DeviceActivityCenterUtil.swift (the pause-timer functions, for the pause
// strategies, are not ported). The main app's `BlockedProfiles` (a SwiftData model) is its
// snapshot here (FoqosMainApp).

import Foundation
import SimulatediOS

class DeviceActivityCenterUtil {
  static func scheduleTimerActivity(for profile: SharedData.ProfileSnapshot, on platform: Platform) async throws {
    // Only schedule if the schedule is active
    guard let schedule = profile.schedule else { return }

    let center = platform.deviceActivityCenter
    let scheduleTimerActivity = ScheduleTimerActivity(platform: platform)
    let deviceActivityName = scheduleTimerActivity.getDeviceActivityName(
      from: profile.id.uuidString)

    // If the schedule is not active, remove any existing schedule
    if !schedule.isActive {
      try await stopActivities(for: [deviceActivityName], with: center, on: platform)
      return
    }

    let (intervalStart, intervalEnd) = scheduleTimerActivity.getScheduleInterval(from: schedule)
    let deviceActivitySchedule = DeviceActivitySchedule(
      intervalStart: intervalStart,
      intervalEnd: intervalEnd,
      repeats: true,
    )

    do {
      // Remove any existing schedule and create a new one
      try await stopActivities(for: [deviceActivityName], with: center, on: platform)
      try await center.startMonitoring(deviceActivityName, during: deviceActivitySchedule)
    } catch let error as MonitoringError {
      log.error("Failed to start monitoring: \(error.message)")
    }
  }

  static func startBreakTimerActivity(for profile: SharedData.ProfileSnapshot, on platform: Platform) async throws {
    try await startBreakTimerActivity(
      for: profile,
      durationInSeconds: TimeInterval(profile.breakTimeInMinutes * 60),
      on: platform
    )
  }

  static func startBreakTimerActivity(
    for profile: SharedData.ProfileSnapshot,
    durationInSeconds: TimeInterval,
    on platform: Platform
  ) async throws {
    let center = platform.deviceActivityCenter
    let breakTimerActivity = BreakTimerActivity(platform: platform)
    let deviceActivityName = breakTimerActivity.getDeviceActivityName(from: profile.id.uuidString)

    let (intervalStart, intervalEnd) = getTimeIntervalStartAndEnd(from: durationInSeconds, on: platform)
    let deviceActivitySchedule = DeviceActivitySchedule(
      intervalStart: intervalStart,
      intervalEnd: intervalEnd,
      repeats: false,
    )

    do {
      // Remove any existing schedule and create a new one
      try await stopActivities(for: [deviceActivityName], with: center, on: platform)
      try await center.startMonitoring(deviceActivityName, during: deviceActivitySchedule)
    } catch let error as MonitoringError {
      log.error("Failed to start break timer activity: \(error.message)")
    }
  }

  static func startStrategyTimerActivity(for profile: SharedData.ProfileSnapshot, on platform: Platform) async throws {
    guard let strategyData = profile.strategyData else {
      log.error("No strategy data found for profile: \(profile.id.uuidString)")
      return
    }
    let timerData = StrategyTimerData.toStrategyTimerData(from: strategyData)

    let center = platform.deviceActivityCenter
    let strategyTimerActivity = StrategyTimerActivity(platform: platform)
    let deviceActivityName = strategyTimerActivity.getDeviceActivityName(
      from: profile.id.uuidString)

    let (intervalStart, intervalEnd) = getTimeIntervalStartAndEnd(
      from: TimeInterval(timerData.durationInMinutes * 60), on: platform)

    let deviceActivitySchedule = DeviceActivitySchedule(
      intervalStart: intervalStart,
      intervalEnd: intervalEnd,
      repeats: false,
    )

    do {
      // Remove any existing activity and create a new one
      try await stopActivities(for: [deviceActivityName], with: center, on: platform)
      try await center.startMonitoring(deviceActivityName, during: deviceActivitySchedule)
    } catch let error as MonitoringError {
      log.error("Failed to start strategy timer activity: \(error.message)")
    }
  }

  static func removeScheduleTimerActivities(for profile: SharedData.ProfileSnapshot, on platform: Platform) async throws {
    let scheduleTimerActivity = ScheduleTimerActivity(platform: platform)
    let deviceActivityName = scheduleTimerActivity.getDeviceActivityName(
      from: profile.id.uuidString)
    try await stopActivities(for: [deviceActivityName], on: platform)
  }

  static func removeScheduleTimerActivities(for activity: DeviceActivityName, on platform: Platform) async throws {
    try await stopActivities(for: [activity], on: platform)
  }

  static func removeAllBreakTimerActivities(on platform: Platform) async throws {
    let center = platform.deviceActivityCenter
    let activities = try await center.activities().map(DeviceActivityName.init(rawValue:))
    let breakTimerActivity = BreakTimerActivity(platform: platform)
    let breakTimerActivities = breakTimerActivity.getAllBreakTimerActivities(from: activities)
    try await stopActivities(for: breakTimerActivities, with: center, on: platform)
  }

  static func removeBreakTimerActivity(for profile: SharedData.ProfileSnapshot, on platform: Platform) async throws {
    let breakTimerActivity = BreakTimerActivity(platform: platform)
    let deviceActivityName = breakTimerActivity.getDeviceActivityName(from: profile.id.uuidString)
    try await stopActivities(for: [deviceActivityName], on: platform)
  }

  static func removeAllStrategyTimerActivities(on platform: Platform) async throws {
    let center = platform.deviceActivityCenter
    let activities = try await center.activities().map(DeviceActivityName.init(rawValue:))
    let strategyTimerActivity = StrategyTimerActivity(platform: platform)
    let strategyTimerActivities = strategyTimerActivity.getAllStrategyTimerActivities(
      from: activities)
    try await stopActivities(for: strategyTimerActivities, with: center, on: platform)
  }

  static func getActiveScheduleTimerActivity(for profile: SharedData.ProfileSnapshot, on platform: Platform) async throws -> DeviceActivityName? {
    let center = platform.deviceActivityCenter
    let scheduleTimerActivity = ScheduleTimerActivity(platform: platform)
    let activities = try await center.activities().map(DeviceActivityName.init(rawValue:))

    return activities.first(where: {
      $0 == scheduleTimerActivity.getDeviceActivityName(from: profile.id.uuidString)
    })
  }

  static func getDeviceActivities(on platform: Platform) async throws -> [DeviceActivityName] {
    let center = platform.deviceActivityCenter
    return try await center.activities().map(DeviceActivityName.init(rawValue:))
  }

  private static func stopActivities(
    for activities: [DeviceActivityName], with center: DeviceActivityCenter? = nil, on platform: Platform
  ) async throws {
    let center = center ?? platform.deviceActivityCenter

    if activities.isEmpty {
      // No activities to stop
      return
    }

    try await center.stopMonitoring(activities)
  }

  private static func getTimeIntervalStartAndEnd(from durationInSeconds: TimeInterval, on platform: Platform) -> (
    intervalStart: DateComponents, intervalEnd: DateComponents
  ) {
    let intervalStart = DateComponents(hour: 0, minute: 0, second: 0)

    let now = platform.currentDate
    let safeDuration = max(1, durationInSeconds)
    let endDate = min(
      now.addingTimeInterval(safeDuration),
      platform.calendar.calendar.startOfDay(for: now).addingTimeInterval((24 * 60 * 60) - 1)
    )
    let intervalEnd = platform.calendar.calendar.dateComponents([.hour, .minute, .second], from: endDate)
    return (intervalStart: intervalStart, intervalEnd: intervalEnd)
  }
}

private let log = Logger(subsystem: "dev.ambitionsoftware.foqos", category: "DeviceActivityCenterUtil")
