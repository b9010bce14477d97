import SimulatediOS
import Wallet
import WalletServer

extension AppRegistration {
    /// Wallet with its server (docs/sdk.md, "Registering an app"): `TestDevice(app: .wallet)` in a
    /// test, `ClarityDaemon.run(apps: AppRegistration.builtIn + [.wallet])` in a daemon. The app
    /// target sees only the SDK, so the app and its server meet here.
    public static let wallet = AppRegistration(
        description: WalletApp.description, settings: WalletSettings.self, server: .wallet
    ) { WalletApp(platform: $0, executors: $1, settings: $2) }
}
