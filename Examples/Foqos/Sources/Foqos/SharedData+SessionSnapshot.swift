// Ported from Foqos, https://github.com/awaseem/foqos (commit f02cf4e4).
// Copyright (c) 2024 Ali Waseem. MIT License: the full notice is in LICENSE-Foqos beside Package.swift.
// Ported onto clarityd's simulated iOS; every changed line is listed in docs/porting-foqos.md.
// Original: SharedData.SessionSnapshot in Foqos/Models/Shared.swift.

import Foundation

extension SharedData {
  // MARK: – Serializable snapshot of a session (no profile object)
  struct SessionSnapshot: Codable, Equatable {
    var id: String
    var tag: String
    var blockedProfileId: UUID

    var startTime: Date
    var endTime: Date?

    var breakStartTime: Date?
    var breakEndTime: Date?
    var usedBreakDurationInSeconds: TimeInterval? = nil

    var pauseStartTime: Date?
    var pauseEndTime: Date?

    var forceStarted: Bool
  }
}
