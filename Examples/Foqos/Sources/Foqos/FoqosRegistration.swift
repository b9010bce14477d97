// Part of the Foqos port (docs/porting-foqos.md); not in the original.

import SimulatediOS

extension AppRegistration {
  /// Foqos as a device runs it (docs/sdk.md, "Registering an app"): `TestDevice(app: .foqos)` in a
  /// test, `ClarityDaemon.run(apps: AppRegistration.builtIn + [.foqos])` in a daemon.
  public static let foqos = AppRegistration(description: FoqosApp.description) { platform, executors in
    FoqosApp(platform: platform, executors: executors)
  }
}
