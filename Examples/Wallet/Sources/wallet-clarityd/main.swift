import BuiltInApps
import ClarityDaemon
import SimulatediOS
import WalletApp

ClarityDaemon.run(apps: AppRegistration.builtIn + [.wallet])
