// Ported from Foqos, https://github.com/awaseem/foqos (commit f02cf4e4).
// Copyright (c) 2024 Ali Waseem. MIT License: the full notice is in LICENSE-Foqos beside Package.swift.
// Ported onto clarityd's simulated iOS; every changed line is listed in docs/porting-foqos.md.
// Original: Foqos/Utils/AppBlockerUtil.swift (activateSoftUnblockRestrictions, for the soft-unblock
// strategies, is not ported).

import SimulatediOS

struct AppBlockerUtil {
  let store: ManagedSettingsStore

  init(platform: Platform) {
    store = platform.managedSettingsStore(named: "foqosAppRestrictions")
  }

  func activateRestrictions(for profile: SharedData.ProfileSnapshot) async throws {
    let selection = profile.selectedActivity
    try await applyRestrictions(
      for: profile,
      applicationTokens: selection.applicationTokens,
      categoryTokens: selection.categoryTokens,
      categoryApplicationExceptions: []
    )
  }

  private func applyRestrictions(
    for profile: SharedData.ProfileSnapshot,
    applicationTokens: Set<String>,
    categoryTokens: Set<String>,
    categoryApplicationExceptions: Set<String>
  ) async throws {
    let allowOnlyApps = profile.enableAllowMode

    if allowOnlyApps {
      try await store.setShield(
        applications: try await store.shield().applications, categories: .all(except: applicationTokens))
    } else {
      try await store.setShield(
        applications: applicationTokens,
        categories:
        categoryTokens.isEmpty
        ? .none
        : .specific(
          categoryTokens,
          except: categoryApplicationExceptions
        ))
    }
  }

  func deactivateRestrictions() async throws {
    try await store.setShield(applications: [], categories: .none)

    try await store.clearAllSettings()
  }

  func deactivateRestrictionsForBreak(for profile: SharedData.ProfileSnapshot) async throws {
    try await store.setShield(applications: [], categories: .none)
  }
}
