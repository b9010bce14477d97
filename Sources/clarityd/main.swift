import BuiltInApps
import ClarityDaemon
import SimulatediOS

ClarityDaemon.run(apps: AppRegistration.builtIn)
