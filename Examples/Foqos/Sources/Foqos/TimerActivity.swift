// Ported from Foqos, https://github.com/awaseem/foqos (commit f02cf4e4).
// Copyright (c) 2024 Ali Waseem. MIT License: the full notice is in LICENSE-Foqos beside Package.swift.
// Ported onto clarityd's simulated iOS; every changed line is listed in docs/porting-foqos.md.
// Original: Foqos/Models/Timers/TimerActivity.swift.

import SimulatediOS

protocol TimerActivity {
  static var id: String { get }

  func start(for profile: SharedData.ProfileSnapshot) async throws
  func stop(for profile: SharedData.ProfileSnapshot) async throws
  func start(for profile: SharedData.ProfileSnapshot, activityName: DeviceActivityName) async throws
  func stop(for profile: SharedData.ProfileSnapshot, activityName: DeviceActivityName) async throws
  func profileId(from activityName: DeviceActivityName) -> String
}

extension TimerActivity {
  func start(for profile: SharedData.ProfileSnapshot, activityName _: DeviceActivityName) async throws {
    try await start(for: profile)
  }

  func stop(for profile: SharedData.ProfileSnapshot, activityName _: DeviceActivityName) async throws {
    try await stop(for: profile)
  }

  func profileId(from activityName: DeviceActivityName) -> String {
    let components = activityName.rawValue.split(separator: ":", maxSplits: 1)
    if components.count == 2 {
      return String(components[1])
    }

    return activityName.rawValue
  }
}
