// Part of the Foqos port (docs/porting-foqos.md); not in the original.

import SimulatediOS

/// The user's actions on the main app: the buttons of its profile form and home screen.
typealias FoqosIntent = AppIntent<FoqosMainApp>

extension FoqosIntent {
  static let all: [FoqosIntent] = [
    .named(
      "saveProfile", SaveProfileInput.self,
      "profileId?, name, apps=[bundle ids], categories?, webDomains?, allowMode?, breakMinutes?, schedule?={days, startHour, startMinute, endHour, endMinute}"
    ) { app, input in try await app.saveProfile(input) },
    .named("startTimer", StartTimerInput.self, "profileId?, minutes") { app, input in
      try await app.startTimer(profileId: input.profileId, minutes: input.minutes)
    },
    .named("stopSession", NoArguments.self) { app, _ in try await app.stopSession() },
    .named("toggleBreak", NoArguments.self) { app, _ in try await app.toggleBreak() },
    .named("status", NoArguments.self) { app, _ in try await app.status() },
  ]
}
