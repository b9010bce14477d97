// Ported from Foqos, https://github.com/awaseem/foqos (commit f02cf4e4).
// Copyright (c) 2024 Ali Waseem. MIT License: the full notice is in LICENSE-Foqos beside Package.swift.
// Ported onto clarityd's simulated iOS; every changed line is listed in docs/porting-foqos.md.
// Original: FoqosShieldAction/ShieldActionExtension.swift. Its one decision besides closing is the
// soft-unblock grant (primary button on an app's or a category's shield, while a soft-unblock
// session is active), which is not ported (docs/porting-foqos.md): without it every path of the
// original ends in .close.

import SimulatediOS

actor ShieldActionExtension: WorldActor, ShieldActionDelegate {
  nonisolated let executor: WorldActorExecutor

  init(executor: WorldActorExecutor) {
    self.executor = executor
  }

  func handle(
    action: ShieldButton,
    for application: ApplicationToken
  ) async throws -> ShieldActionResponse {
    return .close
  }

  func handle(
    action: ShieldButton,
    for webDomain: WebDomainToken
  ) async throws -> ShieldActionResponse {
    return .close
  }

  func handle(
    action: ShieldButton,
    for category: ActivityCategoryToken,
    application: String
  ) async throws -> ShieldActionResponse {
    return .close
  }
}
