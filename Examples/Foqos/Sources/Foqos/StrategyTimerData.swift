// Ported from Foqos, https://github.com/awaseem/foqos (commit f02cf4e4).
// Copyright (c) 2024 Ali Waseem. MIT License: the full notice is in LICENSE-Foqos beside Package.swift.
// Ported onto clarityd's simulated iOS; every changed line is listed in docs/porting-foqos.md.
// Original: Foqos/Models/Strategies/Data/StrategyTimerData.swift.

import Foundation

struct StrategyTimerData: Codable {
  var durationInMinutes: Int
  var hideStopButton: Bool

  static func toStrategyTimerData(from data: Data) -> StrategyTimerData {
    do {
      return try JSONDecoder().decode(StrategyTimerData.self, from: data)
    } catch {
      // If decoding fails, return a default with 15 minutes
      return StrategyTimerData(durationInMinutes: 15, hideStopButton: false)
    }
  }

  static func toData(from data: StrategyTimerData) -> Data? {
    return try? SharedData.encoder().encode(data)
  }
}
