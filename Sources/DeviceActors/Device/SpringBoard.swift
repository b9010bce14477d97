import ExtensionSandbox
@_spi(Host) import SimulatediOS

/// The device's system shell: lock state, the frontmost app, the shield flow and the radios.
///
/// Shield flow (docs/platform.md): an app that is frontmost while any store shields it is
/// covered by its shield, and ShieldConfiguration is asked for the texts (`configuration
/// (shielding:)`, or `(shielding:in:)` through a category; the system default when the
/// extension is jetsammed). `shield.press` asks ShieldAction: `.close` goes home, `.defer`
/// redraws the shield, `.none` does nothing more; a shield lifted meanwhile uncovers the app.
/// Usage counts only for an uncovered frontmost app on an unlocked device.
///
/// Several apps (docs/platform.md, "Several apps on one device"): each app's main app is opened by
/// its bundle id and becomes active in front; each app's monitor gets its own activities'
/// callbacks; a shield is drawn and answered by the extensions of the app whose store shields the
/// app in front (by token before by category, then the first installed). The system's signals
/// — calls, networks, HealthKit, Shortcuts, Android broadcasts, WorkManager, URL opening — reach
/// the primary app (the first installed).
actor SpringBoard: WorldActor {
    nonisolated let executor: WorldActorExecutor
    /// The installed apps, in order; the first is the primary.
    let apps: [InstalledApp]
    /// The primary app's handles (the shared agents are everyone's).
    private let platform: Platform
    private let trace: DeviceTrace

    /// The lock, the frontmost app and its shield (the pure part of the shield flow).
    private var flow = ShieldFlow()
    /// Why the shield last drawn covers its app: which ShieldAction form a press calls (the
    /// app's token, or its category's), without asking ManagedSettings again.
    private var drawnReason: ShieldReason?
    /// The shield last drawn over each app, as `shield.shown` traced it: what the screen shows
    /// while that app's shield shows (``SimulatedDevice/screen()``). Kept as the trace entry is
    /// made, so drawing the screen adds no scheduling point.
    private(set) var drawnShields: [String: DrawnShield] = [:]
    /// The newest ManagedSettings ``ManagedSettingsAgent/version`` a shield re-check acted on.
    private var storesSeen = 0
    /// The phone's call.
    private var phone = PhoneCall()
    /// When the system relaunches the main app to deliver HealthKit samples, if one is due.
    private(set) var healthRelaunchDue: VirtualInstant?
    /// `healthBackgroundDeliverySeconds` (device config).
    private var healthDeliveryDelay = VirtualDuration.seconds(3600)

    var locked: Bool { flow.state.locked }
    var foregroundApp: String? { flow.state.foregroundApp }
    var shieldShown: Bool { flow.state.shieldShown }
    var call: CallState? { phone.call }

    /// A shield as SpringBoard drew it: the configuration's texts and look, and who gave them.
    struct DrawnShield: Sendable {
        let configuration: ShieldConfiguration
        let source: ShieldConfigurationSource
    }

    init(executor: WorldActorExecutor, apps: [InstalledApp], trace: DeviceTrace) {
        self.executor = executor
        self.apps = apps
        platform = apps[0].platform
        self.trace = trace
    }

    /// The primary app.
    private var primary: InstalledApp { apps[0] }

    /// The app whose main app `bundle` is, if one is installed.
    private func installed(bundle: String) -> InstalledApp? {
        apps.first { $0.bundleIdentifier == bundle }
    }

    /// The app whose store shields `bundle` and how: an application token before a category, then
    /// the first installed; nil when nothing shields it. With one app installed, `known` (the
    /// reason the shield flow already has) answers without asking ManagedSettings again: one more
    /// scheduling point would change every explored schedule of every single-app scenario
    /// (docs/performance.md, "SpringBoard: no new scheduling points").
    private func shielding(_ bundle: String, known: ShieldReason? = nil) async -> (app: InstalledApp, reason: ShieldReason)? {
        if apps.count == 1, let known { return (primary, known) }
        let owners = await platform.managedSettings.shieldingApps(for: bundle)
        for wantsToken in [true, false] {
            for app in apps {
                guard let owner = owners.first(where: { $0.app == app.name }) else { continue }
                if (owner.reason == .application) == wantsToken { return (app, owner.reason) }
            }
        }
        return nil
    }

    /// Connects the platform's URL opening and main-app timers, and ManagedSettings' writes (each
    /// re-checks the shield when it lands: ``refreshForeground()``), to this SpringBoard. The
    /// platform holds SpringBoard weakly: a device let go of is freed (no cycle through it).
    func install() async {
        await platform.managedSettings.setObserver { [weak self] in await self?.refreshForeground() }
        await platform.system.setURLOpener { [weak self] url in await self?.open(url: url) ?? false }
        await platform.system.setMainAppRunner { [weak self] action in await self?.runMainApp { await action() } }
        let primary = primary
        await platform.work.connect(
            runner: { [weak self] body in await self?.runWork(body) },
            workerFactory: { workerClassName in primary.app.createWorker(workerClassName: workerClassName) })
    }

    /// A WorkManager work runs in the app's process, which it starts when needed.
    private func runWork(_ body: @Sendable () async -> Void) async {
        if !platform.mainApp.inMemory { await relaunchMainApp(primary, reason: "work") }
        await runMainApp { await body() }
    }

    func restore(locked: Bool, foregroundApp: String?, wifi: String?, contacts: [Contact], call: CallState?) async {
        flow = ShieldFlow(locked: locked, foregroundApp: foregroundApp)
        phone = PhoneCall(call: call)
        await platform.system.setSSID(wifi)
        await platform.system.setContacts(contacts)
        await platform.deviceActivity.setInUse(!locked)
        await refreshForeground()
    }

    // MARK: - Events

    func handle(_ event: DeviceEvent) async throws(DeviceError) {
        switch event {
        case .lock:
            let wasLocked = flow.state.locked
            await perform(flow.lock())
            if !wasLocked { await screenChanged(locked: true) }
        case .unlock:
            let wasLocked = flow.state.locked
            await perform(flow.unlock())
            if wasLocked, !flow.state.locked { await screenChanged(locked: false) }
        case .reboot:
            await perform(flow.reboot())
        case .appOpen(let bundle):
            if let opened = installed(bundle: bundle), !opened.platform.mainApp.inMemory {
                await relaunchMainApp(opened, reason: "open")
            }
            await perform(try flow.open(bundle, mainApps: mainApps).mapError(\.error).get())
        case .appClose(let bundle):
            await perform(try flow.close(bundle).mapError(\.error).get())
        case .shieldPress(let bundle, let button, let taps):
            if let refusal = flow.canPress(on: bundle) { throw refusal.error }
            if taps == 1 {
                await perform(flow.shieldAction(responded: await tap(button, on: bundle)))
            } else {
                await pressAtOnce(taps, button, on: bundle)
            }
        case .callDial(let handle):
            await report(try phone.dial(handle: handle, at: platform.now.seconds).mapError(\.error).get())
        case .callConnect:
            await report(try phone.connect(at: platform.now.seconds).mapError(\.error).get())
        case .callEnd:
            await report(try phone.end(at: platform.now.seconds).mapError(\.error).get())
        case .wifiJoin(let ssid):
            await setNetwork(ssid)
        case .wifiLeave(let ssid):
            let current = await platform.system.ssid
            if let ssid, ssid != current {
                throw .refused(reason: "notJoined", message: "the device is not on \(ssid)")
            }
            await setNetwork(nil)
        case .contactsSet(let list):
            await platform.system.setContacts(list)
            trace.record(.contacts(count: list.count), by: "springBoard")
        case .storeKitPurchase(let product):
            try await storeKit { agent throws(StoreKitError) in try await agent.purchase(product) }
        case .storeKitExpire(let product):
            try await storeKit { agent throws(StoreKitError) in try await agent.expire(product) }
        case .storeKitRefund(let product):
            try await storeKit { agent throws(StoreKitError) in try await agent.refund(product) }
        case .healthSample(let kind, let value):
            await addHealthSample(kind, value: value)
        case .healthFail(let count):
            await platform.health.failNext(count)
        case .appTerminate(let bundle):
            try await terminateMainApp(bundle)
        case .networkOffline:
            await setOnline(false)
        case .networkOnline:
            await setOnline(true)
        }
    }

    // MARK: - Lock and unlock as apps hear of them (docs/platform.md#shortcuts, #android)

    /// iOS tells no app of a lock or unlock; only a Shortcuts personal automation the user made
    /// runs an app's App Shortcut then (seed 001, "The iOS Constraint"). Android broadcasts
    /// `SCREEN_OFF` / `USER_PRESENT` to the receivers apps declared in their manifests.
    private func screenChanged(locked: Bool) async {
        switch platform.devicePlatform {
        case .ios:
            guard let automation = await platform.shortcutsAgent.fire(locked ? .lock : .unlock) else { return }
            guard let shortcut = primary.app.appShortcuts.first(where: { $0.name == automation.shortcut }) else {
                trace.record(.appError(callback: "shortcut \(automation.shortcut)", message: "the app offers no such App Shortcut"), by: "shortcuts")
                return
            }
            if !platform.mainApp.inMemory { await relaunchMainApp(primary, reason: "shortcut") }
            await runMainApp(reportingErrorsAs: "shortcut \(shortcut.name)") { try await shortcut.perform() }
        case .android:
            let action: BroadcastAction = locked ? .screenOff : .userPresent
            let receivers = platform.receivers.receivers(for: action)
            guard !receivers.isEmpty else { return }
            if !platform.mainApp.inMemory { await relaunchMainApp(primary, reason: "broadcast") }
            for onReceive in receivers {
                await runMainApp(reportingErrorsAs: "onReceive \(action.rawValue)") { try await onReceive(action) }
            }
        }
    }

    /// `network.offline` / `network.online`: path monitors hear of it; back online, works
    /// waiting for the network start.
    private func setOnline(_ online: Bool) async {
        guard await platform.network.setOnline(online) else { return }
        let path = NetworkPath(ssid: await platform.system.ssid, isSatisfied: online)
        for pathUpdateHandler in platform.system.observers.path {
            await runMainApp(reportingErrorsAs: "pathUpdateHandler") { try await pathUpdateHandler(path) }
        }
        if online { await platform.work.networkCameBack() }
    }

    // MARK: - The main app's process (docs/platform.md, "The main app's process")

    /// `app.terminate`: the main app leaves the screen if it was in front, then its process
    /// ends: observers (calls, networks, HealthKit) and timers are gone (docs/platform.md).
    private func terminateMainApp(_ bundle: String) async throws(DeviceError) {
        guard let target = installed(bundle: bundle) else {
            let main = apps.map(\.bundleIdentifier).joined(separator: ", ")
            throw .invalidArgument(field: "app", reason: "not this device's main app (\(main))")
        }
        guard target.platform.mainApp.inMemory else {
            throw .refused(reason: "notRunning", message: "\(bundle) is not in memory: app.open launches it")
        }
        if flow.state.foregroundApp == bundle { await perform(try flow.close(bundle).mapError(\.error).get()) }
        await endMainAppProcess(of: target)
    }

    /// Ends `target`'s main app process (`app.terminate`, a reboot): its in-memory state,
    /// observers and running flows are gone, and its timers never run (`timer.lost`, reason
    /// `terminated`); the App Group and the ManagedSettings stores stay. It runs again only when
    /// iOS launches it (``relaunchMainApp(_:reason:)``).
    private func endMainAppProcess(of target: InstalledApp) async {
        target.platform.mainApp.terminate()
        // The system's signals are the primary app's: its observers end with it.
        if target.name == primary.name {
            platform.system.observers.removeAll()
            await platform.health.processEnded()
        }
        await target.app.processEnded()
        trace.record(.appTerminate, by: target.mainAppActor)
    }

    /// Starts an app's main app process again (`open`: the user opened it; `healthDelivery`: the
    /// system, in the background): a new launch, whose `launch()` registers observers again.
    private func relaunchMainApp(_ target: InstalledApp, reason: String) async {
        target.platform.mainApp.relaunch()
        trace.record(.appLaunch(reason: reason), by: target.mainAppActor)
        await runMainApp(of: target, reportingErrorsAs: "launch") { try await target.app.launch() }
    }

    // MARK: - HealthKit delivery (docs/platform.md#healthkit)

    func configure(healthDeliverySeconds: Int) {
        healthDeliveryDelay = .seconds(Double(healthDeliverySeconds))
    }

    /// A sample reaches the app's observers at once while it is in memory; otherwise, with
    /// background delivery enabled, the system relaunches it after the delivery delay.
    private func addHealthSample(_ kind: HealthQuantityType, value: Double) async {
        let inMemory = platform.mainApp.inMemory
        let observers = await platform.health.add(kind, value: value, appInMemory: inMemory)
        for observer in observers {
            await runMainApp(reportingErrorsAs: "healthObserver") { try await observer() }
        }
        if !inMemory, healthRelaunchDue == nil, await !platform.health.undelivered.isEmpty {
            armHealthRelaunch(at: platform.now + healthDeliveryDelay)
        }
    }

    /// Arms the background relaunch (also after a restore, at the saved time).
    func armHealthRelaunch(at due: VirtualInstant) {
        healthRelaunchDue = due
        platform.world.clock.schedule(at: due, label: "healthDelivery") { [weak self] in await self?.deliverHealth() }
    }

    private func deliverHealth() async {
        healthRelaunchDue = nil
        if !platform.mainApp.inMemory { await relaunchMainApp(primary, reason: "healthDelivery") }
        for observer in await platform.health.takeUndelivered() {
            await runMainApp(reportingErrorsAs: "healthObserver") { try await observer() }
        }
    }

    private func storeKit(_ body: (StoreKitAgent) async throws(StoreKitError) -> Void) async throws(DeviceError) {
        do {
            try await body(platform.storeKit)
        } catch {
            throw .refused(reason: error.reason, message: error.message)
        }
        await refreshForeground()
    }

    /// CXCallObserver: every transition reaches the call observers the app registered.
    private func report(_ state: CallState) async {
        trace.record(.call(state), by: "springBoard")
        for callChanged in platform.system.observers.call {
            await runMainApp(reportingErrorsAs: "callObserver") { try await callChanged(state) }
        }
    }

    private func setNetwork(_ ssid: String?) async {
        await platform.system.setSSID(ssid)
        trace.record(.wifi(ssid: ssid), by: "springBoard")
        let path = NetworkPath(ssid: ssid, isSatisfied: await platform.network.online)
        for pathUpdateHandler in platform.system.observers.path {
            await runMainApp(reportingErrorsAs: "pathUpdateHandler") { try await pathUpdateHandler(path) }
        }
    }

    /// `UIApplication.open`: `sms:` opens Messages, `tel:` Phone, `facetime:` FaceTime.
    private func open(url: String) async -> Bool {
        let schemes = [
            "sms:": "com.apple.MobileSMS", "tel:": "com.apple.mobilephone", "facetime:": "com.apple.facetime",
        ]
        guard !flow.state.locked, let bundle = schemes.first(where: { url.hasPrefix($0.key) })?.value else { return false }
        await perform(flow.bringToFront(bundle, mainApps: mainApps))
        return true
    }

    /// The installed apps' main-app bundle ids.
    private var mainApps: Set<String> { Set(apps.map(\.bundleIdentifier)) }

    /// One press reaching ShieldAction (the shielding app's): its callback, traced with the response.
    /// Called as iOS calls it: with the website's token, the category's token when the shield
    /// covers the app through its category, else the app's token.
    private func tap(_ button: ShieldButton, on bundle: String) async -> ShieldActionResponse {
        let owner = apps.count == 1 ? (app: primary, reason: drawnReason ?? .application) : await shielding(bundle)
        let shieldAction = owner?.app.shieldAction ?? primary.shieldAction
        let reason = owner?.reason ?? .application
        let response: ShieldActionResponse
        do {
            response = try await shieldAction.run(callback: "handle(action:for:)") {
                if let domain = WebDomain.domain(ofForegroundName: bundle) {
                    return try await $0.handle(action: button, for: WebDomainToken(domain: domain))
                }
                guard case .category(let category) = reason else {
                    return try await $0.handle(action: button, for: ApplicationToken(bundleIdentifier: bundle))
                }
                return try await $0.handle(action: button, for: ActivityCategoryToken(category: category), application: bundle)
            }
        } catch {
            trace.recordError(error, in: "handle(action:for:)", actor: shieldAction.actorName, sandbox: shieldAction.name)
            response = .none
        }
        trace.record(.shieldAction(app: bundle, button: button, response: response), by: "springBoard")
        return response
    }

    /// `taps` presses delivered at once, each its own ShieldAction callback running concurrently;
    /// the responses act in the order they came back, each while the app is still in front (a
    /// second `.close` finds the home screen and does nothing more).
    private func pressAtOnce(_ taps: Int, _ button: ShieldButton, on bundle: String) async {
        let responses = await withTaskGroup(of: ShieldActionResponse.self) { group in
            for _ in 0..<taps { group.addTask { await self.tap(button, on: bundle) } }
            var responses: [ShieldActionResponse] = []
            for await response in group { responses.append(response) }
            return responses
        }
        for response in responses where flow.state.foregroundApp == bundle {
            await perform(flow.shieldAction(responded: response))
        }
    }

    // MARK: - Shields

    /// Re-checks the frontmost app against the effective shield: covers it (asking
    /// ShieldConfiguration) or uncovers it, then tells DeviceActivity whose usage counts.
    /// ``perform(_:)`` calls this for ``ShieldFlow/Action/refresh`` rather than recursing into
    /// itself: the recursive form added scheduling points, which would change every explored
    /// schedule (docs/performance.md, "SpringBoard: no new scheduling points").
    ///
    /// Every ManagedSettings write that changes a store starts one in a task of its own, so
    /// several may run at once: one whose read of the stores is older than what an earlier one
    /// already acted on reads again, so that no shield is drawn or lifted from stale stores.
    func refreshForeground() async {
        guard let bundle = flow.appToCheck else {
            await platform.deviceActivity.setForegroundUsage(app: nil)
            return
        }
        var read = await platform.managedSettings.versionedShieldReason(for: bundle)
        while read.version < storesSeen {
            read = await platform.managedSettings.versionedShieldReason(for: bundle)
        }
        storesSeen = read.version
        await perform(flow.refresh(bundle, shieldedBy: read.reason))
    }

    /// Performs what the shield flow asked for, in order.
    private func perform(_ actions: [ShieldFlow.Action]) async {
        for action in actions {
            switch action {
            case .traceAppState:
                traceAppState()
            case .setInUse(let inUse):
                await platform.deviceActivity.setInUse(inUse)
            case .setUnlockedSinceBoot(let unlocked):
                await platform.appGroups.setUnlockedSinceBoot(unlocked)
            case .reboot:
                // Every process ends: the extensions and each main app in memory.
                trace.record(.reboot, by: "springBoard")
                for app in apps {
                    app.monitor.terminate()
                    app.shieldConfiguration.terminate()
                    app.shieldAction.terminate()
                    if app.platform.mainApp.inMemory { await endMainAppProcess(of: app) }
                }
            case .becomeActive:
                guard let active = flow.state.foregroundApp.flatMap(installed(bundle:)) else { break }
                await runMainApp(of: active, reportingErrorsAs: "didBecomeActive") { try await active.app.didBecomeActive() }
            case .refresh:
                await refreshForeground()
            case .showShield(let bundle, let reason):
                drawnReason = reason
                let drawn = await configuration(for: bundle, reason: reason)
                await perform(flow.shieldDrawn(bundle, configuration: drawn.configuration, source: drawn.source))
            case .traceShieldShown(let bundle, let configuration, let source):
                drawnShields[bundle] = DrawnShield(configuration: configuration, source: source)
                trace.record(.shieldShown(app: bundle, configuration: configuration, source: source), by: "springBoard")
            case .countUsage(let bundle):
                await platform.deviceActivity.setForegroundUsage(app: flow.usage(of: bundle))
            }
        }
    }

    /// Asks the ShieldConfiguration extension of the app whose store shields `bundle` for its
    /// shield; the system default when the extension fails (jetsam), or nothing shields it any more.
    private func configuration(for bundle: String, reason known: ShieldReason) async -> (
        configuration: ShieldConfiguration, source: ShieldConfigurationSource
    ) {
        guard let (owner, reason) = await shielding(bundle, known: known) else {
            return (.systemDefault(appName: platform.catalog.displayName(of: bundle)), .systemDefault)
        }
        let shieldConfiguration = owner.shieldConfiguration
        let application = Application(bundleIdentifier: bundle, localizedDisplayName: platform.catalog.displayName(of: bundle))
        do {
            let configuration: ShieldConfiguration
            switch reason {
            case .application where WebDomain.domain(ofForegroundName: bundle) != nil:
                let webDomain = WebDomain(domain: WebDomain.domain(ofForegroundName: bundle)!)
                configuration = try await shieldConfiguration.run(callback: "configuration(shielding:)") {
                    try await $0.configuration(shielding: webDomain)
                }
            case .application:
                configuration = try await shieldConfiguration.run(callback: "configuration(shielding:)") {
                    try await $0.configuration(shielding: application)
                }
            case .category(let category):
                configuration = try await shieldConfiguration.run(callback: "configuration(shielding:in:)") {
                    try await $0.configuration(shielding: application, in: ActivityCategory(name: category))
                }
            }
            return (configuration, .extension)
        } catch {
            trace.recordError(
                error, in: reason == .application ? "configuration(shielding:)" : "configuration(shielding:in:)",
                actor: shieldConfiguration.actorName, sandbox: shieldConfiguration.name)
            return (.systemDefault(appName: platform.catalog.displayName(of: bundle)), .systemDefault)
        }
    }

    /// `shield.config`: what the shield would show for `bundle` now; nil when nothing shields it.
    func shieldConfiguration(for bundle: String) async -> (configuration: ShieldConfiguration, source: ShieldConfigurationSource)? {
        guard let reason = await platform.managedSettings.shieldReason(for: bundle) else { return nil }
        return await configuration(for: bundle, reason: reason)
    }

    // MARK: - Extensions and main app

    /// Delivers a DeviceActivity callback to the monitor extension of `appName`. A fault site: an
    /// exploration may drop the delivery (``Fault/callbackDropped``)
    /// or make it late (``Fault/callbackDelayed``), traced.
    func deliverToMonitor(_ callback: MonitorCallback, of appName: String) async {
        guard let monitor = apps.first(where: { $0.name == appName })?.monitor else { return }
        switch callback {
        case .intervalDidStart(let activity): trace.record(.monitorIntervalStart(activity: activity), by: "deviceActivity")
        case .intervalDidEnd(let activity): trace.record(.monitorIntervalEnd(activity: activity), by: "deviceActivity")
        case .eventDidReachThreshold(let event, let activity):
            trace.record(.monitorThreshold(activity: activity, event: event), by: "deviceActivity")
        case .intervalWillStartWarning(let activity):
            trace.record(.monitorWarning(activity: activity, warning: .intervalWillStart, event: nil), by: "deviceActivity")
        case .intervalWillEndWarning(let activity):
            trace.record(.monitorWarning(activity: activity, warning: .intervalWillEnd, event: nil), by: "deviceActivity")
        case .eventWillReachThresholdWarning(let event, let activity):
            trace.record(.monitorWarning(activity: activity, warning: .eventWillReachThreshold, event: event), by: "deviceActivity")
        }
        if Scheduler.current?.faults.fires(.callbackDropped) == true {
            trace.record(.fault(fault: Fault.callbackDropped.rawValue, at: callback.name), by: "deviceActivity")
            return
        }
        if Scheduler.current?.faults.fires(.callbackDelayed) == true {
            trace.record(.fault(fault: Fault.callbackDelayed.rawValue, at: callback.name), by: "deviceActivity")
            let clock = platform.world.clock
            clock.schedule(at: clock.now + .seconds(Fault.callbackDelaySeconds), label: "delayed \(callback.name)") {
                [weak self] in await self?.run(callback, in: monitor)
            }
            return
        }
        await run(callback, in: monitor)
    }

    /// Runs `callback` in a monitor extension. Its shield writes were acted on as they landed,
    /// while it ran (``refreshForeground()``): nothing is left to do after it returns.
    private func run(_ callback: MonitorCallback, in monitor: Sandbox<any DeviceActivityMonitor>) async {
        do {
            try await monitor.run(callback: callback.name) { try await $0.receive(callback) }
        } catch {
            trace.recordError(error, in: callback.name, actor: monitor.actorName, sandbox: monitor.name)
        }
    }

    /// Runs main-app code under the identity of `target`'s main app (the primary's by default).
    /// Errors the app throws are returned to the caller. Each run is one invocation (an intent, a
    /// timer, an observer): a context of its own, so the race detector pairs a write only with
    /// the reads made by the same run. Its shield writes were acted on as they landed.
    func runMainApp<T: Sendable>(of target: InstalledApp? = nil, _ body: @Sendable () async throws -> T) async rethrows -> T {
        let app = target ?? primary
        let launch = app.platform.mainApp.inMemory ? MainAppLaunch(of: app.platform, actor: app.mainAppActor, trace: trace) : nil
        let invocation = CallbackContext(unsandboxedActor: app.mainAppActor, launch: launch)
        return try await CallbackContext.$current.withValue(invocation) { try await body() }
    }

    /// Runs main-app code that nobody waits on (an observer, becoming active): what it throws
    /// is traced as `app.error` under the main app.
    private func runMainApp(
        of target: InstalledApp? = nil, reportingErrorsAs callback: String, _ body: @Sendable () async throws -> Void
    ) async {
        do {
            try await runMainApp(of: target, body)
        } catch {
            trace.recordError(error, in: callback, actor: (target ?? primary).mainAppActor)
        }
    }

    private func traceAppState() {
        let state = flow.state
        trace.record(
            .appState(locked: state.locked, foregroundApp: state.foregroundApp, shieldShown: state.shieldShown), by: "springBoard")
    }
}
