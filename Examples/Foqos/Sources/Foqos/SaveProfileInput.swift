// Part of the Foqos port (docs/porting-foqos.md); not in the original.

import SimulatediOS

/// `saveProfile`'s arguments: what BlockedProfileView's form holds — a name, what the user picked
/// in FamilyActivityPicker (apps by bundle id, categories by name, websites by domain: the
/// platform's picker turns them into tokens), allow mode, the break length (breaks on when given)
/// and the schedule. `profileId` updates that profile instead.
struct SaveProfileInput: IntentInput {
  struct Schedule: Decodable, Sendable {
    var days: [Int]
    var startHour: Int
    var startMinute: Int
    var endHour: Int
    var endMinute: Int
  }

  var profileId: String?
  var name: String
  var apps: [String]
  var categories: [String]?
  var webDomains: [String]?
  var allowMode: Bool?
  var breakMinutes: Int?
  var schedule: Schedule?

  func validate() throws(DeviceError) {
    guard !name.isEmpty else { throw .invalidArgument(field: "args.name", reason: "a profile needs a name") }
    guard apps.count <= 50 else { throw .invalidArgument(field: "args.apps", reason: "at most fifty bundle ids") }
    guard (webDomains ?? []).count <= 50 else {
      throw .invalidArgument(field: "args.webDomains", reason: "at most fifty domains")
    }
    if let breakMinutes, !(1...60).contains(breakMinutes) {
      throw .invalidArgument(field: "args.breakMinutes", reason: "1 to 60 minutes")
    }
    if let schedule {
      guard schedule.days.allSatisfy((1...7).contains) else {
        throw .invalidArgument(field: "args.schedule.days", reason: "weekdays 1 (Sunday) to 7 (Saturday)")
      }
      guard (0...23).contains(schedule.startHour), (0...23).contains(schedule.endHour),
        (0...59).contains(schedule.startMinute), (0...59).contains(schedule.endMinute)
      else { throw .invalidArgument(field: "args.schedule", reason: "hours 0 to 23, minutes 0 to 59") }
    }
  }
}
