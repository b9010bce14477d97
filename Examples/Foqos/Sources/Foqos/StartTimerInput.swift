// Part of the Foqos port (docs/porting-foqos.md); not in the original.

import SimulatediOS

/// `startTimer`'s arguments: the profile (without one, the first profile saved: the home screen's
/// first card) and the duration picked in TimerDurationView.
struct StartTimerInput: IntentInput {
  var profileId: String?
  var minutes: Int

  func validate() throws(DeviceError) {
    guard (15...1440).contains(minutes) else {
      throw .invalidArgument(field: "args.minutes", reason: "15 to 1440 minutes")
    }
  }
}
