import BuiltInApps
import ClarityDaemon
import DailyLimit
import SimulatediOS

ClarityDaemon.run(apps: AppRegistration.builtIn + [.dailyLimit])
