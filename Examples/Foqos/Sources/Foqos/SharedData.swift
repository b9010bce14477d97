// Ported from Foqos, https://github.com/awaseem/foqos (commit f02cf4e4).
// Copyright (c) 2024 Ali Waseem. MIT License: the full notice is in LICENSE-Foqos beside Package.swift.
// Ported onto clarityd's simulated iOS; every changed line is listed in docs/porting-foqos.md.
// Original: Foqos/Models/Shared.swift (the enum; its two nested snapshot types are in
// SharedData+ProfileSnapshot.swift and SharedData+SessionSnapshot.swift).

import Foundation
import SimulatediOS

struct SharedData {
  let platform: Platform
  private var suite: AppGroupDefaults {
    platform.userDefaults(suiteName: "group.dev.ambitionsoftware.foqos")
  }

  // MARK: – Keys
  private enum Key: String {
    case profileSnapshots
    case activeScheduleSession
    case completedScheduleSessions
  }

  /// `JSONEncoder()` with sorted keys: the bytes written to the App Group must be the same on
  /// every run (the simulated device replays byte for byte).
  static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }

  // MARK: – Persisted snapshots keyed by profile ID (UUID string)
  func profileSnapshots() async throws -> [String: ProfileSnapshot] {
      guard let data = try await suite.data(forKey: Key.profileSnapshots.rawValue) else { return [:] }
      return (try? JSONDecoder().decode([String: ProfileSnapshot].self, from: data)) ?? [:]
  }
  func setProfileSnapshots(_ newValue: [String: ProfileSnapshot]) async throws {
      if let data = try? SharedData.encoder().encode(newValue) {
        try await suite.set(data, forKey: Key.profileSnapshots.rawValue)
      } else {
        try await suite.removeObject(forKey: Key.profileSnapshots.rawValue)
      }
  }

  func snapshot(for profileID: String) async throws -> ProfileSnapshot? {
    try await profileSnapshots()[profileID]
  }

  func setSnapshot(_ snapshot: ProfileSnapshot, for profileID: String) async throws {
    var all = try await profileSnapshots()
    all[profileID] = snapshot
    try await setProfileSnapshots(all)
  }

  func removeSnapshot(for profileID: String) async throws {
    var all = try await profileSnapshots()
    all.removeValue(forKey: profileID)
    try await setProfileSnapshots(all)
  }

  // MARK: – Persisted array of scheduled sessions
  func completedSessionsInSchedular() async throws -> [SessionSnapshot] {
      guard let data = try await suite.data(forKey: Key.completedScheduleSessions.rawValue) else { return [] }
      return (try? JSONDecoder().decode([SessionSnapshot].self, from: data)) ?? []
  }
  func setCompletedSessionsInSchedular(_ newValue: [SessionSnapshot]) async throws {
      if let data = try? SharedData.encoder().encode(newValue) {
        try await suite.set(data, forKey: Key.completedScheduleSessions.rawValue)
      } else {
        try await suite.removeObject(forKey: Key.completedScheduleSessions.rawValue)
      }
  }

  // MARK: – Persisted array of scheduled sessions
  func activeSharedSession() async throws -> SessionSnapshot? {
      guard let data = try await suite.data(forKey: Key.activeScheduleSession.rawValue) else { return nil }
      return (try? JSONDecoder().decode(SessionSnapshot.self, from: data)) ?? nil
  }
  func setActiveSharedSession(_ newValue: SessionSnapshot?) async throws {
      if let data = try? SharedData.encoder().encode(newValue) {
        try await suite.set(data, forKey: Key.activeScheduleSession.rawValue)
      } else {
        try await suite.removeObject(forKey: Key.activeScheduleSession.rawValue)
      }
  }

  @discardableResult
  func createSessionForSchedular(for profileID: UUID) async throws -> SessionSnapshot {
    let session = SessionSnapshot(
      id: platform.uuid(),
      tag: profileID.uuidString,
      blockedProfileId: profileID,
      startTime: platform.currentDate,
      forceStarted: true)
    try await setActiveSharedSession(session)
    return session
  }

  func createActiveSharedSession(for session: SessionSnapshot) async throws {
    try await setActiveSharedSession(session)
  }

  func getActiveSharedSession() async throws -> SessionSnapshot? {
    try await activeSharedSession()
  }

  func endActiveSharedSession() async throws {
    guard var existingScheduledSession = try await activeSharedSession() else { return }

    existingScheduledSession.endTime = platform.currentDate
    try await setCompletedSessionsInSchedular(try await completedSessionsInSchedular() + [existingScheduledSession])

    try await setActiveSharedSession(nil)
  }

  func flushActiveSession() async throws {
    try await setActiveSharedSession(nil)
  }

  func getCompletedSessionsForSchedular() async throws -> [SessionSnapshot] {
    try await completedSessionsInSchedular()
  }

  func flushCompletedSessionsForSchedular() async throws {
    try await setCompletedSessionsInSchedular([])
  }

  /// `activeSharedSession?.x = y`: reads the session, changes it, writes it back (nothing if
  /// there is none) — the read-modify-write the original's optional chaining does.
  private func updateActiveSharedSession(_ change: (inout SessionSnapshot) -> Void) async throws {
    guard var session = try await activeSharedSession() else { return }
    change(&session)
    try await setActiveSharedSession(session)
  }

  func setBreakStartTime(date: Date) async throws {
    try await updateActiveSharedSession { $0.breakStartTime = date }
  }

  func setBreakEndTime(date: Date) async throws {
    try await updateActiveSharedSession { $0.breakEndTime = date }
  }

  func resetBreak() async throws {
    try await updateActiveSharedSession { $0.breakStartTime = nil }
    try await updateActiveSharedSession { $0.breakEndTime = nil }
  }

  func setUsedBreakDurationInSeconds(_ duration: TimeInterval) async throws {
    try await updateActiveSharedSession { $0.usedBreakDurationInSeconds = duration }
  }

  func endBreak(date: Date, allowMultipleBreaks: Bool, totalAllowanceInSeconds: TimeInterval) async throws
  {
    guard var session = try await activeSharedSession() else { return }

    if allowMultipleBreaks, let breakStartTime = session.breakStartTime {
      let activeBreakDuration = max(0, date.timeIntervalSince(breakStartTime))
      let existingUsedDuration = session.usedBreakDurationInSeconds ?? 0
      session.usedBreakDurationInSeconds = min(
        totalAllowanceInSeconds,
        existingUsedDuration + activeBreakDuration
      )
    }

    session.breakEndTime = date
    try await setActiveSharedSession(session)
  }

  func setEndTime(date: Date) async throws {
    try await updateActiveSharedSession { $0.endTime = date }
  }
}
