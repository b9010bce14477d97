import Clarity
import DeviceActors
import MakeHay
import ScrollKitty
import SimulatediOS
import SpendLess
import ThePhone

extension AppCatalog {
    /// The five apps PROTOCOL.md names, as `clarityd` runs them. A daemon of your own adds
    /// yours beside them: `ClarityDaemon.run(apps: AppCatalog.builtInApps + [.dailyLimit])`.
    public static let builtInApps: [AppRegistration] = [.clarity, .scrollKitty, .spendLess, .makeHay, .thePhone]

    /// A catalog of the built-in apps.
    public static let builtIn = AppCatalog(builtInApps)
}
