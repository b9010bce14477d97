// Ported from Foqos, https://github.com/awaseem/foqos (commit f02cf4e4).
// Copyright (c) 2024 Ali Waseem. MIT License: the full notice is in LICENSE-Foqos beside Package.swift.
// Ported onto clarityd's simulated iOS; every changed line is listed in docs/porting-foqos.md.
// The main app's part in the extensions' story, rewritten as an actor (its SwiftUI views and
// SwiftData models do not port). Each function follows the original's calls, in order:
//   saveProfile  — BlockedProfileDraft.save → BlockedProfiles.createProfile/updateProfile
//                  (→ updateSnapshot) → DeviceActivityCenterUtil.scheduleTimerActivity
//   startTimer   — StrategyManager.startBlocking → ShortcutTimerBlockingStrategy.startBlocking
//                  (onDurationSelected, then startTimerSession) → handleSessionStarted
//   stopSession  — StrategyManager.stopBlocking → ShortcutTimerBlockingStrategy.stopBlocking
//                  (BlockedProfileSession.endSession) → handleSessionEnded
//   toggleBreak  — StrategyManager.toggleBreak → startBreak / stopBreak
// The SwiftData session (BlockedProfileSession) is the App Group's active session here, which
// the original keeps in step with it (SharedData.createActiveSharedSession, setBreakStartTime…).

import Foundation
import SimulatediOS

actor FoqosMainApp: WorldActor {
  nonisolated let executor: WorldActorExecutor
  private let platform: Platform
  private var sharedData: SharedData { SharedData(platform: platform) }
  private var appBlocker: AppBlockerUtil { AppBlockerUtil(platform: platform) }

  init(executor: WorldActorExecutor, platform: Platform) {
    self.executor = executor
    self.platform = platform
  }

  // MARK: - BlockedProfileDraft.save

  func saveProfile(_ draft: SaveProfileInput) async throws -> FoqosStatus {
    let now = platform.currentDate
    let schedule = draft.schedule.map {
      BlockedProfileSchedule(
        days: $0.days.compactMap(Weekday.init(rawValue:)), startHour: $0.startHour, startMinute: $0.startMinute,
        endHour: $0.endHour, endMinute: $0.endMinute, updatedAt: now)  // schedule.updatedAt = Date()
    }
    // FamilyActivityPicker: the user's pick, as tokens
    let selection = try platform.familyActivityPicker.selection(
      applications: draft.apps, categories: draft.categories ?? [], webDomains: draft.webDomains ?? [])
    let enableBreaks = draft.breakMinutes != nil

    var profile: SharedData.ProfileSnapshot
    if let id = draft.profileId, let existing = try await sharedData.snapshot(for: id) {
      // BlockedProfiles.updateProfile
      profile = existing
      profile.name = draft.name
      profile.selectedActivity = selection
      profile.enableBreaks = enableBreaks
      profile.breakTimeInMinutes = draft.breakMinutes ?? 15
      profile.enableAllowMode = draft.allowMode ?? false
      // The form always holds a schedule; one switched off has no days (isActive is false).
      profile.schedule = schedule ?? existing.schedule.map {
        BlockedProfileSchedule(
          days: [], startHour: $0.startHour, startMinute: $0.startMinute, endHour: $0.endHour,
          endMinute: $0.endMinute, updatedAt: now)
      }
      profile.updatedAt = now
    } else {
      // BlockedProfiles.createProfile
      profile = SharedData.ProfileSnapshot(
        id: UUID(uuidString: platform.uuid())!, name: draft.name, selectedActivity: selection, createdAt: now,
        updatedAt: now, blockingStrategyId: "ShortcutTimerBlockingStrategy", strategyData: nil,
        order: try await sharedData.profileSnapshots().count, enableLiveActivity: false, reminderTimeInSeconds: nil,
        customReminderMessage: "", enableBreaks: enableBreaks, breakTimeInMinutes: draft.breakMinutes ?? 15,
        allowMultipleBreaks: false, enableStrictMode: false, enableBlockAppInstallation: false,
        enableAllowMode: draft.allowMode ?? false, enableAllowModeDomains: false, enableSafariBlocking: true,
        enableAdultContentBlocking: false, enableMacSync: false, domains: nil, schedule: schedule,
        disableBackgroundStops: false, enableEmergencyUnblock: true)
    }
    // Create the snapshot so extensions can read it immediately
    try await sharedData.setSnapshot(profile, for: profile.id.uuidString)

    try await DeviceActivityCenterUtil.scheduleTimerActivity(for: profile, on: platform)
    return try await status(profileId: profile.id.uuidString)
  }

  // MARK: - ShortcutTimerBlockingStrategy

  func startTimer(profileId: String?, minutes: Int) async throws -> FoqosStatus {
    let profiles = try await sharedData.profileSnapshots()
    guard let profileId = profileId ?? profiles.values.min(by: { $0.order < $1.order })?.id.uuidString,
      var profile = profiles[profileId]
    else {
      throw DeviceError.invalidArgument(field: "args.profileId", reason: "no profile \(profileId ?? "saved yet")")
    }
    // StrategyManager.toggleBlocking: a running session is stopped, not started again.
    guard try await sharedData.getActiveSharedSession() == nil else { return try await status() }

    // onDurationSelected
    if let strategyTimerData = StrategyTimerData.toData(
      from: StrategyTimerData(durationInMinutes: minutes, hideStopButton: false))
    {
      profile.strategyData = strategyTimerData
      profile.updatedAt = platform.currentDate
      try await sharedData.setSnapshot(profile, for: profileId)
    }

    // startTimerSession: BlockedProfileSession.createSession
    let sessionSnapshot = SharedData.SessionSnapshot(
      id: platform.uuid(), tag: profile.blockingStrategyId ?? "ManualBlockingStrategy", blockedProfileId: profile.id,
      startTime: platform.currentDate, forceStarted: false)
    try await sharedData.createActiveSharedSession(for: sessionSnapshot)

    try await DeviceActivityCenterUtil.startStrategyTimerActivity(for: profile, on: platform)

    // handleSessionStarted: update the snapshot of the profile in case some settings were changed
    try await sharedData.setSnapshot(profile, for: profileId)
    return try await status()
  }

  func stopSession() async throws -> FoqosStatus {
    guard try await sharedData.getActiveSharedSession() != nil else {
      return try await status()  // "No active session found, calling stop blocking with no session"
    }

    // session.endSession(): set the end time in shared data in case its being saved
    try await sharedData.setEndTime(date: platform.currentDate)
    try await sharedData.flushActiveSession()
    try await appBlocker.deactivateRestrictions()

    // handleSessionEnded
    try await DeviceActivityCenterUtil.removeAllBreakTimerActivities(on: platform)
    try await DeviceActivityCenterUtil.removeAllStrategyTimerActivities(on: platform)
    return try await status()
  }

  // MARK: - StrategyManager.toggleBreak

  func toggleBreak() async throws -> FoqosStatus {
    guard let session = try await sharedData.getActiveSharedSession(),
      let profile = try await sharedData.snapshot(for: session.blockedProfileId.uuidString)
    else {
      return try await status()  // "Breaks only available in active session"
    }
    let isBreakActive = profile.enableBreaks && session.breakStartTime != nil && session.breakEndTime == nil

    if isBreakActive {
      // stopBreak: session.endBreak()
      try await sharedData.setBreakEndTime(date: platform.currentDate)
      try await appBlocker.activateRestrictions(for: profile)
      try await DeviceActivityCenterUtil.removeBreakTimerActivity(for: profile, on: platform)
    } else {
      // startBreak: isBreakAvailable (one break per session: allowMultipleBreaks is off)
      guard profile.enableBreaks, session.breakEndTime == nil else { return try await status() }
      let remainingBreakAllowance = TimeInterval(profile.breakTimeInMinutes * 60)

      try await sharedData.setBreakStartTime(date: platform.currentDate)
      try await appBlocker.deactivateRestrictionsForBreak(for: profile)

      // Start the break timer activity
      try await DeviceActivityCenterUtil.startBreakTimerActivity(
        for: profile,
        durationInSeconds: remainingBreakAllowance,
        on: platform
      )
    }
    return try await status()
  }

  // MARK: - What the home screen shows

  func status(profileId: String? = nil) async throws -> FoqosStatus {
    let session = try await sharedData.getActiveSharedSession()
    return FoqosStatus(
      profileId: profileId,
      profiles: try await sharedData.profileSnapshots().values.map(\.name).sorted(),
      activeProfileId: session?.blockedProfileId.uuidString,
      breakActive: session.map { $0.breakStartTime != nil && $0.breakEndTime == nil } ?? false,
      completedSessions: try await sharedData.getCompletedSessionsForSchedular().count,
      activities: try await platform.deviceActivityCenter.activities(),
      shielded: !(try await appBlocker.store.shield().isEmpty))
  }
}
