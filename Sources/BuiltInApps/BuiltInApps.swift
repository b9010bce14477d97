import Clarity
import DeviceActors
import MakeHay
import ScrollKitty
import SimulatediOS
import SpendLess
import ThePhone
import ThePhoneBackend

extension AppRegistration {
    /// The five apps docs/protocol.md#devices names, as `clarityd` runs them. A daemon of your own
    /// adds yours beside them: `ClarityDaemon.run(apps: AppRegistration.builtIn + [.dailyLimit])`.
    public static let builtIn: [AppRegistration] = [.clarity, .scrollKitty, .spendLess, .makeHay, .thePhone]
}

extension AppRegistration {
    /// The Phone with its backend (docs/apps/thephone-backend.md).
    public static let thePhone = AppRegistration.thePhone(talkingTo: .thePhoneBackend)
}

extension AppCatalog {
    /// A catalog of the built-in apps.
    public static let builtIn = AppCatalog(AppRegistration.builtIn)
}
