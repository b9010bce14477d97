import DeviceActors
import Foundation
import SimulatediOS

/// The daemon as a library (docs/sdk.md, "Your own daemon"): a package of your own declares a
/// small executable whose `main.swift` is one line, and `clarityctl`, scenarios, exploration,
/// trace export and watch work against it as against `clarityd`:
///
/// ```swift
/// import BuiltInApps
/// import ClarityDaemon
/// import DailyLimit
///
/// ClarityDaemon.run(apps: AppRegistration.builtIn + [.dailyLimit])
/// ```
public enum ClarityDaemon {
    /// Runs the daemon with this process's command line (`clarityd --help` lists it) and
    /// environment, its devices and scenarios running `apps`; never returns. An app registered
    /// twice by name runs as the later registration.
    public static func run(apps: [AppRegistration]) -> Never {
        let serving = Daemon.start(
            arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment,
            catalog: AppCatalog(apps))
        serving.park()
    }
}
