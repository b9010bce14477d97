import BuiltInApps
import ClarityDaemon
import DeviceActors

ClarityDaemon.run(apps: AppCatalog.builtInApps)
