// Ported from Foqos, https://github.com/awaseem/foqos (commit f02cf4e4).
// Copyright (c) 2024 Ali Waseem. MIT License: the full notice is in LICENSE-Foqos beside Package.swift.
// Ported onto clarityd's simulated iOS; every changed line is listed in docs/porting-foqos.md.
// Original: BlockedProfileSchedule in Foqos/Models/Schedule.swift (nextStartDate and
// nextStartMessage, which only the main app's views use, are not ported).

import Foundation

struct BlockedProfileSchedule: Codable, Equatable {
  var days: [Weekday]

  var startHour: Int
  var startMinute: Int
  var endHour: Int
  var endMinute: Int

  var updatedAt: Date

  var isActive: Bool {
    return !days.isEmpty
  }

  var totalDurationInSeconds: Int {
    return (endHour - startHour) * 3600 + (endMinute - startMinute) * 60
  }

  var summaryText: String {
    guard isActive else { return "No Schedule Set" }

    let daysSummary =
      days
      .sorted { $0.rawValue < $1.rawValue }
      .map { $0.shortLabel }
      .joined(separator: " ")

    let start = formattedTimeString(hour24: startHour, minute: startMinute)
    let end = formattedTimeString(hour24: endHour, minute: endMinute)

    return "\(daysSummary) · \(start) - \(end)"
  }

  func isTodayScheduled(now: Date, calendar: Calendar) -> Bool {
    guard isActive else { return false }
    let currentWeekdayRaw = calendar.component(.weekday, from: now)
    guard let today = Weekday(rawValue: currentWeekdayRaw) else { return false }
    return days.contains(today)
  }

  func olderThan15Minutes(now: Date) -> Bool {
    return now.timeIntervalSince(updatedAt) > 15 * 60
  }

  private func formattedTimeString(hour24: Int, minute: Int) -> String {
    var hour = hour24 % 12
    if hour == 0 { hour = 12 }
    let isPM = hour24 >= 12
    return "\(hour):\(String(format: "%02d", minute)) \(isPM ? "PM" : "AM")"
  }
}
