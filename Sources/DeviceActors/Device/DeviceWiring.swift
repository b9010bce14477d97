import ExtensionSandbox
@_spi(Host) import SimulatediOS

/// How a device is put together, once, when it is made: the world (scheduler, virtual clock,
/// seeded random), the trace, the platform's agents behind the SDK's handles, each installed app
/// with its own handles and three extension sandboxes, and SpringBoard, connected to each other. ``SimulatedDevice`` keeps the
/// parts and drives them; nothing here runs after the device is made, except ``applyQuirks``.
struct DeviceWiring {
    let world: World
    let trace: DeviceTrace
    /// The apps, in the order installed; the first is the primary.
    let apps: [InstalledApp]
    let springBoard: SpringBoard

    /// Processes are named after their app (`<appName>.app`, `<appName>.monitor`…); the
    /// executors are made in a fixed order (the shared agents, then each app in order, then
    /// SpringBoard), so the same device wires the same way every time.
    init(
        _ description: DeviceDescription, options: DeviceRunOptions, calendar: DeviceCalendar, servers: Servers?
    ) throws(DeviceError) {
        let installation = try description.installation(servers: servers)
        let config = description.config
        let world = World(seed: description.seed, strategy: options.strategy)
        world.scheduler.recordsChoices = options.recordsSchedule
        let trace = DeviceTrace(
            clock: world.clock, byteCapacity: config.traceBytes ?? DeviceTrace.byteCapacity, lastSequence: options.traceSequence)
        if options.recordsSchedule { world.scheduler.position = { [recorder = trace.recorder] in recorder.lastSequence } }
        world.scheduler.logSink = { [weak trace] level, category, message in
            trace?.record(.log(level: LogLevel(rawValue: level) ?? .notice, category: category, message: message))
        }
        let catalog = CategoryCatalog.builtIn.merging(installation.listings).merging(config.apps)
        let deviceActivity = DeviceActivityAgent(
            executor: world.makeExecutor(label: "deviceActivity"), clock: world.clock, tasks: world.tasks, calendar: calendar,
            catalog: catalog, trace: trace, apps: installation.names)
        let appGroups = AppGroupContainer(
            executor: world.makeExecutor(label: "appGroups", notesAccesses: true), trace: trace, clock: world.clock,
            tracesEveryRead: options.tracesEveryRead)
        let managedSettings = ManagedSettingsAgent(
            executor: world.makeExecutor(label: "managedSettings"), tasks: world.tasks, trace: trace, catalog: catalog)
        let notifications = NotificationAgent(executor: world.makeExecutor(label: "notifications"), clock: world.clock, trace: trace)
        let system = SystemAgent(executor: world.makeExecutor(label: "system"), trace: trace)
        let storeKit = StoreKitAgent(executor: world.makeExecutor(label: "storeKit"), trace: trace, clock: world.clock)
        let health = HealthAgent(executor: world.makeExecutor(label: "health"), clock: world.clock, calendar: calendar, trace: trace)
        let network = NetworkAgent(
            executor: world.makeExecutor(label: "network"), world: world, calendar: calendar, trace: trace,
            notifications: notifications, system: system, transport: installation.transport)
        let shortcuts = ShortcutsAgent(executor: world.makeExecutor(label: "shortcuts"), trace: trace)
        let work = WorkAgent(
            executor: world.makeExecutor(label: "work"), clock: world.clock, tasks: world.tasks, trace: trace, network: network)
        let budgets = config.memoryBudgets
        var apps: [InstalledApp] = []
        for (index, appName) in installation.names.enumerated() {
            let platform = Platform(
                appName: appName, appGroups: appGroups, managedSettings: managedSettings, deviceActivity: deviceActivity,
                notifications: notifications, system: system, storeKit: storeKit, health: health, network: network,
                shortcuts: shortcuts, work: work, devicePlatform: config.platform, deviceName: description.name, world: world,
                trace: trace, calendar: calendar, catalog: catalog)
            let app = try installation.make(index, platform, ProcessExecutors(world: world))

            /// One extension process: launched on demand by `make`, within `budget`.
            func sandbox<Extension>(
                _ name: String, budget: Int, lifecycle: Sandbox<Extension>.Lifecycle,
                _ make: @escaping @Sendable (WorldActorExecutor) -> Extension
            ) -> Sandbox<Extension> {
                let actorName = "\(appName).\(name)"
                return Sandbox<Extension>(
                    name: name, actorName: actorName, budgetBytes: budget, baselineBytes: config.baselineBytes,
                    lifecycle: lifecycle, factory: { make(world.makeExecutor(label: actorName)) },
                    onEvent: { trace.record($0, actor: actorName, sandbox: name) })
            }
            apps.append(
                InstalledApp(
                    name: appName, app: app, platform: platform,
                    monitor: sandbox("monitor", budget: budgets.monitor, lifecycle: .terminateAfterCallback) {
                        app.makeMonitor(executor: $0)
                    },
                    shieldConfiguration: sandbox(
                        "shieldConfiguration", budget: budgets.shieldConfiguration, lifecycle: .stayResident
                    ) { app.makeShieldConfiguration(executor: $0) },
                    shieldAction: sandbox("shieldAction", budget: budgets.shieldAction, lifecycle: .stayResident) {
                        app.makeShieldAction(executor: $0)
                    }))
        }
        guard !apps.isEmpty else { throw .invalidArgument(field: "apps", reason: "a device runs at least one app") }
        let installed = apps
        let springBoard = SpringBoard(executor: world.makeExecutor(label: "springBoard"), apps: apps, trace: trace)
        do {
            try world.perform {
                await Self.applyQuirks(config, apps: installed)
                // Each installed app's callbacks go to its own monitor; an app with no monitor
                // extension here gets none, as on iOS.
                await deviceActivity.setDelivery { [weak springBoard] app, callback in
                    await springBoard?.deliverToMonitor(callback, of: app)
                }
                await springBoard.install()
                await springBoard.configure(healthDeliverySeconds: config.healthBackgroundDeliverySeconds)
            }
        } catch {
            throw SimulatedDevice.deviceError(error)
        }
        // The fault `reboot` (faults are set only by a scenario's exploration or replay). The
        // scheduler holds this closure, so it holds the world weakly: `world.tasks` holds the
        // scheduler, and a strong capture kept every device's scheduler alive after the device
        // was let go of (found by the fuzz-request and fuzz-scenario targets' leak check).
        world.scheduler.rebootForFault = { [weak springBoard, weak world] in
            guard let springBoard, let world else { return }
            world.tasks.spawn { try? await springBoard.handle(.reboot) }
        }
        self.world = world
        self.trace = trace
        self.apps = apps
        self.springBoard = springBoard
    }

    /// Tells the platform actors the config's authorizations, permissions, quirks and race detector (at
    /// creation, and again on every `config.set`).
    static func applyQuirks(_ config: DeviceConfig, apps: [InstalledApp]) async {
        let platform = apps[0].platform
        await platform.deviceActivity.configure(
            authorized: config.familyControlsAuthorized, thresholdFiresOnStart: config.quirk("thresholdFiresOnStart"),
            thresholdBatchInterval: config.quirk("batchedThresholds")
                ? .seconds(Double(config.thresholdBatchIntervalSeconds)) : nil)
        await platform.appGroups.configure(
            propagationDelay: config.quirk("lateDefaultsPropagation")
                ? .seconds(Double(config.defaultsPropagationDelaySeconds)) : nil,
            emptyBeforeFirstUnlock: config.quirk("emptyDefaultsBeforeFirstUnlock"), detectRaces: config.raceDetector)
        await platform.notifications.configure(permission: config.notificationPermission)
        for app in apps { app.platform.tokens.configure(unstable: config.quirk("unstableTokens")) }
        await platform.health.configure(authorization: config.healthAuthorization)
    }
}
