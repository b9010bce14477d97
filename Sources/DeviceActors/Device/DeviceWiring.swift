import ExtensionSandbox
@_spi(Host) import SimulatediOS

/// How a device is put together, once, when it is made: the world (scheduler, virtual clock,
/// seeded random), the trace, the platform's agents behind the SDK's handles, the app, its three
/// extension sandboxes and SpringBoard, connected to each other. ``SimulatedDevice`` keeps the
/// parts and drives them; nothing here runs after the device is made, except ``applyQuirks``.
struct DeviceWiring {
    let world: World
    let trace: DeviceTrace
    let platform: Platform
    let app: any SimulatedApp
    let springBoard: SpringBoard

    /// Processes are named after the app (`<appName>.app`, `<appName>.monitor`…); the executors
    /// are made in a fixed order, so the same device wires the same way every time.
    init(
        deviceName: String, appName: String, calendar: DeviceCalendar, seed: UInt64, config: DeviceConfig, traceSequence: Int,
        strategy: any SchedulingStrategy, recordsSchedule: Bool, transport: (any NetworkTransport)?,
        makeApp: (Platform, World) throws(DeviceError) -> any SimulatedApp
    ) throws(DeviceError) {
        let world = World(seed: seed, strategy: strategy)
        world.scheduler.recordsChoices = recordsSchedule
        let trace = DeviceTrace(clock: world.clock, lastSequence: traceSequence)
        if recordsSchedule { world.scheduler.position = { [recorder = trace.recorder] in recorder.lastSequence } }
        let catalog = CategoryCatalog.builtIn.merging(config.apps)
        let deviceActivity = DeviceActivityAgent(
            executor: world.makeExecutor(label: "deviceActivity"), clock: world.clock, tasks: world.tasks, calendar: calendar,
            catalog: catalog, trace: trace, apps: [appName])
        let appGroups = AppGroupContainer(
            executor: world.makeExecutor(label: "appGroups", notesAccesses: true), trace: trace, clock: world.clock)
        let managedSettings = ManagedSettingsAgent(executor: world.makeExecutor(label: "managedSettings"), trace: trace, catalog: catalog)
        let notifications = NotificationAgent(executor: world.makeExecutor(label: "notifications"), clock: world.clock, trace: trace)
        let system = SystemAgent(executor: world.makeExecutor(label: "system"), trace: trace)
        let storeKit = StoreKitAgent(executor: world.makeExecutor(label: "storeKit"), trace: trace, clock: world.clock)
        let health = HealthAgent(executor: world.makeExecutor(label: "health"), clock: world.clock, calendar: calendar, trace: trace)
        let network = NetworkAgent(
            executor: world.makeExecutor(label: "network"), clock: world.clock, calendar: calendar, trace: trace,
            notifications: notifications, system: system, transport: transport)
        let platform = Platform(
            appName: appName, appGroups: appGroups, managedSettings: managedSettings, deviceActivity: deviceActivity,
            notifications: notifications, system: system, storeKit: storeKit, health: health, network: network,
            shortcuts: ShortcutsAgent(executor: world.makeExecutor(label: "shortcuts"), trace: trace),
            work: WorkAgent(
                executor: world.makeExecutor(label: "work"), clock: world.clock, tasks: world.tasks, trace: trace, network: network),
            devicePlatform: config.platform, deviceName: deviceName, world: world, trace: trace, calendar: calendar, catalog: catalog)
        let app = try makeApp(platform, world)

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
        let budgets = config.memoryBudgets
        let springBoard = SpringBoard(
            executor: world.makeExecutor(label: "springBoard"), platform: platform, app: app, trace: trace,
            monitor: sandbox("monitor", budget: budgets.monitor, lifecycle: .terminateAfterCallback) {
                app.makeMonitor(executor: $0)
            },
            shieldConfiguration: sandbox("shieldConfiguration", budget: budgets.shieldConfiguration, lifecycle: .stayResident) {
                app.makeShieldConfiguration(executor: $0)
            },
            shieldAction: sandbox("shieldAction", budget: budgets.shieldAction, lifecycle: .stayResident) {
                app.makeShieldAction(executor: $0)
            },
            mainAppActor: "\(appName).app")
        do {
            try world.perform {
                await Self.applyQuirks(config, platform: platform)
                // A device hosts one app, whose monitor SpringBoard runs; an app with no monitor
                // extension here gets no callbacks, as on iOS.
                await deviceActivity.setDelivery { [weak springBoard] app, callback in
                    guard app == appName else { return }
                    await springBoard?.deliverToMonitor(callback)
                }
                await springBoard.install()
                await springBoard.configure(healthDeliverySeconds: config.healthBackgroundDeliverySeconds)
            }
        } catch {
            throw SimulatedDevice.deviceError(error)
        }
        // The fault `reboot` (faults are set only by a scenario's exploration or replay).
        let tasks = world.tasks
        world.scheduler.rebootForFault = { [weak springBoard] in
            guard let springBoard else { return }
            tasks.spawn { try? await springBoard.handle(.reboot) }
        }
        self.world = world
        self.trace = trace
        self.platform = platform
        self.app = app
        self.springBoard = springBoard
    }

    /// Tells the platform actors the config's authorizations, permissions, quirks and race detector (at
    /// creation, and again on every `config.set`).
    static func applyQuirks(_ config: DeviceConfig, platform: Platform) async {
        await platform.deviceActivity.configure(
            authorized: config.familyControlsAuthorized, thresholdFiresOnStart: config.quirk("thresholdFiresOnStart"),
            thresholdBatchInterval: config.quirk("batchedThresholds")
                ? .seconds(Double(config.thresholdBatchIntervalSeconds)) : nil)
        await platform.appGroups.configure(
            propagationDelay: config.quirk("lateDefaultsPropagation")
                ? .seconds(Double(config.defaultsPropagationDelaySeconds)) : nil,
            emptyBeforeFirstUnlock: config.quirk("emptyDefaultsBeforeFirstUnlock"), detectRaces: config.raceDetector)
        await platform.notifications.configure(permission: config.notificationPermission)
        platform.tokens.configure(unstable: config.quirk("unstableTokens"))
        await platform.health.configure(authorization: config.healthAuthorization)
    }
}
