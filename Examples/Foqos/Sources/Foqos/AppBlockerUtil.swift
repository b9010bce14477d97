// Ported from Foqos, https://github.com/awaseem/foqos (commit f02cf4e4).
// Copyright (c) 2024 Ali Waseem. MIT License: the full notice is in LICENSE-Foqos beside Package.swift.
// Ported onto clarityd's simulated iOS; every changed line is listed in docs/porting-foqos.md.
// Original: Foqos/Utils/AppBlockerUtil.swift (activateSoftUnblockRestrictions, for the soft-unblock
// strategies, is not ported). Each shield setting is its own write, as on iOS; the web content
// filter, the web-domain categories and the application settings are not in the SDK
// (docs/porting-foqos.md, Gaps).

import SimulatediOS

struct AppBlockerUtil {
  let store: ManagedSettingsStore

  init(platform: Platform) {
    store = platform.managedSettingsStore(
      named: ManagedSettingsStore.Name("foqosAppRestrictions")
    )
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
    applicationTokens: Set<ApplicationToken>,
    categoryTokens: Set<ActivityCategoryToken>,
    categoryApplicationExceptions: Set<ApplicationToken>
  ) async throws {
    let selection = profile.selectedActivity
    let allowOnlyApps = profile.enableAllowMode
    let enableSafariBlocking = profile.enableSafariBlocking

    let webTokens = selection.webDomainTokens

    if allowOnlyApps {
      try await store.setShieldApplicationCategories(tokens: .all(except: applicationTokens))
    } else {
      try await store.setShieldApplications(tokens: applicationTokens.isEmpty ? nil : applicationTokens)
      try await store.setShieldApplicationCategories(tokens:
        categoryTokens.isEmpty
        ? nil
        : .specific(
          categoryTokens,
          except: categoryApplicationExceptions
        ))

      if enableSafariBlocking {
        try await store.setShieldWebDomains(tokens: webTokens)
      }
    }
  }

  func deactivateRestrictions() async throws {
    try await store.setShieldApplications(tokens: nil)
    try await store.setShieldApplicationCategories(tokens: nil)
    try await store.setShieldWebDomains(tokens: nil)

    try await store.clearAllSettings()
  }

  func deactivateRestrictionsForBreak(for profile: SharedData.ProfileSnapshot) async throws {
    try await store.setShieldApplications(tokens: nil)
    try await store.setShieldApplicationCategories(tokens: nil)
    try await store.setShieldWebDomains(tokens: nil)
  }
}
