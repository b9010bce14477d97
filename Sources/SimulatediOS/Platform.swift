import ExtensionSandbox
import Foundation

/// The simulated iOS that app code sees: the handles Apple's frameworks would give it.
/// The main app and every extension of the device get the same platform; who is calling is
/// known from the running ``CallbackContext``.
public struct Platform: Sendable {
    @_spi(Host) public let appGroups: AppGroupContainer
    @_spi(Host) public let managedSettings: ManagedSettingsAgent
    @_spi(Host) public let deviceActivity: DeviceActivityAgent
    @_spi(Host) public let notifications: NotificationAgent
    @_spi(Host) public let system: SystemAgent
    @_spi(Host) public let storeKit: StoreKitAgent
    @_spi(Host) public let health: HealthAgent
    @_spi(Host) public let network: NetworkAgent
    @_spi(Host) public let shortcutsAgent: ShortcutsAgent
    @_spi(Host) public let work: WorkAgent
    /// Android's manifest receivers (kept by the system across the app's process).
    @_spi(Host) public let receivers = ManifestReceivers()
    /// The operating system the device runs (`device.create`'s `platform`).
    public let devicePlatform: DevicePlatform
    /// `UIDevice.current.name`: the device's name (`device.create`'s `device`).
    public let deviceName: String
    /// Mixed into every ``uuid()``: two devices of one daemon never draw the same ids, whatever
    /// their seeds, as two phones' `UUID()`s never meet (a server tells events apart by the id
    /// the phone drew).
    private let uuidSalt: (UInt64, UInt64)
    @_spi(Host) public let world: World
    @_spi(Host) public let trace: DeviceTrace
    /// The device's calendar (epoch and time zone).
    public let calendar: DeviceCalendar
    /// The device's app catalog (names and categories).
    public let catalog: CategoryCatalog
    /// The app this platform is given to (its catalog name, `dailylimit`): what is per app on iOS —
    /// ManagedSettings store names — is kept apart by it.
    @_spi(Host) public let appName: String
    /// How tokens encode (the quirk `unstableTokens`), shared by every copy of the platform.
    @_spi(Host) public let tokens = ApplicationTokenCodec()
    /// The main app's process: in memory or not, and which launch.
    @_spi(Host) public let mainApp = MainAppLife()

    /// The device wires its platform once, from its agents, for the app `appName` (`DeviceWiring`).
    @_spi(Host) public init(
        appName: String, appGroups: AppGroupContainer, managedSettings: ManagedSettingsAgent,
        deviceActivity: DeviceActivityAgent, notifications: NotificationAgent, system: SystemAgent, storeKit: StoreKitAgent,
        health: HealthAgent, network: NetworkAgent, shortcuts: ShortcutsAgent, work: WorkAgent, devicePlatform: DevicePlatform,
        deviceName: String, world: World, trace: DeviceTrace, calendar: DeviceCalendar, catalog: CategoryCatalog
    ) {
        self.appName = appName
        self.appGroups = appGroups
        self.managedSettings = managedSettings
        self.deviceActivity = deviceActivity
        self.notifications = notifications
        self.system = system
        self.storeKit = storeKit
        self.health = health
        self.network = network
        self.shortcutsAgent = shortcuts
        self.work = work
        self.devicePlatform = devicePlatform
        self.deviceName = deviceName
        /// FNV-1a over the name's bytes, twice (the second after a separator), as two words.
        func fnv(_ bytes: some Sequence<UInt8>) -> UInt64 {
            bytes.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
        }
        uuidSalt = (fnv(deviceName.utf8), fnv(Array(deviceName.utf8) + [0]))
        self.world = world
        self.trace = trace
        self.calendar = calendar
        self.catalog = catalog
    }

    /// `JSONEncoder().encode(token)` for `application`'s `ApplicationToken` in the calling
    /// process: the bundle id's UTF-8 bytes, unless the quirk `unstableTokens` is on
    /// (``ApplicationTokenCodec``). Tokens themselves (bundle ids) always compare equal.
    public func encodedToken(of application: String) -> Data {
        tokens.encoded(application)
    }

    /// Whether the main app's process is in memory (`app.terminate` ends it; `app.open` or a
    /// HealthKit background delivery launches it again): the simulator's view, for a dashboard.
    public var mainAppIsInMemory: Bool { mainApp.inMemory }

    /// `HKHealthStore()`.
    public var healthStore: HealthStore { HealthStore(agent: health) }

    /// `URLSession.shared` (docs/platform.md#network).
    public var urlSession: NetworkSession { NetworkSession(agent: network) }

    /// The user's personal automations in the Shortcuts app (iOS; docs/platform.md#shortcuts).
    public var shortcuts: ShortcutsAutomations { ShortcutsAutomations(agent: shortcutsAgent, kind: devicePlatform) }

    /// The app's manifest (Android): its broadcast receivers.
    public var androidManifest: AndroidManifest { AndroidManifest(receivers: receivers, kind: devicePlatform) }

    /// `CoroutineScope(Dispatchers.IO)` (Android).
    public var coroutineScope: CoroutineScope { CoroutineScope(tasks: world.tasks, trace: trace, kind: devicePlatform) }

    /// `WorkManager.getInstance(context)` (Android).
    public var workManager: WorkManager { WorkManager(agent: work, kind: devicePlatform) }

    /// The device's clock as servers and the seed's code see it: milliseconds since 1970
    /// (`System.currentTimeMillis()`, `Date().timeIntervalSince1970 × 1000`).
    public var currentTimeMillis: Int64 { network.milliseconds(world.clock.now) }

    /// `UserDefaults(suiteName:)`.
    public func userDefaults(suiteName: String) -> AppGroupDefaults {
        AppGroupDefaults(suiteName: suiteName, container: appGroups, mainApp: mainApp)
    }

    /// `ManagedSettingsStore(named:)`.
    public func managedSettingsStore(named name: String = ManagedSettingsStore.defaultName) -> ManagedSettingsStore {
        ManagedSettingsStore(name: name, agent: managedSettings, app: appName)
    }

    /// `DeviceActivityCenter()`.
    public var deviceActivityCenter: DeviceActivityCenter { DeviceActivityCenter(agent: deviceActivity, app: appName) }

    /// `UNUserNotificationCenter.current()`.
    public var notificationCenter: UserNotificationCenter {
        UserNotificationCenter(agent: notifications, system: system, calendar: calendar)
    }

    /// Device-wide services: WiFi, contacts, Focus mode, opening URLs.
    public var systemServices: SystemServices { SystemServices(agent: system) }

    /// `CXCallObserver()`.
    public var callObserver: CallObserver { CallObserver(observers: system.observers) }

    /// `NWPathMonitor()`.
    public var pathMonitor: PathMonitor { PathMonitor(observers: system.observers) }

    /// StoreKit 2.
    public var storeKitServices: StoreKitServices { StoreKitServices(agent: storeKit, system: system) }

    /// `OSSignposter`: the app's own events in the device's trace (kind `app`).
    public var signposter: Signposter { Signposter(trace: trace) }
    /// `FamilyActivityPicker`: turns the user's pick into tokens (``FamilyActivitySelection``).
    public var familyActivityPicker: FamilyActivityPicker { FamilyActivityPicker(catalog: catalog) }
    /// `Logger(subsystem:category:)`: messages land in the trace (``Logger``); the subsystem is
    /// the app's name unless given.
    public func logger(subsystem: String? = nil, category: String) -> Logger {
        Logger(subsystem: subsystem ?? appName, category: category)
    }

    /// Today's usage per app in seconds, as a `DeviceActivityReport` would show the main app.
    public func usageToday() async throws -> [String: Double] {
        try CallbackContext.platformCall(VisibleOperation("read", "DeviceActivityReport", "usageToday"))
        return await deviceActivity.usageToday()
    }

    /// A timer on the virtual clock (`Timer`, `asyncAfter`, a `BGTask`'s earliest date). Set by
    /// the main app, `action` runs as the main app, after which shields are re-checked.
    /// What `action` throws is traced as `app.error` (callback `timer <label>`).
    ///
    /// A timer lives in the process that set it, as on iOS: set by the main app, it dies with
    /// that launch (`app.terminate`: traced `timer.lost`, reason `terminated`); set by an extension, it runs only if
    /// that launch of the extension is inside a callback when it comes due. An extension ends
    /// after its callback (the monitor) or sits idle and suspended (the shield extensions), so
    /// in practice its timer never fires: it is traced `timer.lost` (reason `ended` or
    /// `suspended`) under the extension, at the time it was due. Re-shield with a
    /// DeviceActivity schedule instead (docs/platform.md, Timers).
    @discardableResult
    public func scheduleAppTimer(after seconds: Double, label: String, action: @escaping @Sendable () async throws -> Void)
        -> AppTimerID
    {
        let system = system
        let trace = trace
        let due = world.clock.now + .seconds(seconds)
        let fire: @Sendable () async -> Void = {
            do { try await action() } catch { trace.recordError(error, in: "timer \(label)") }
        }
        guard let context = CallbackContext.current, let sandbox = context.sandbox else {
            let mainApp = mainApp
            let launch = mainApp.current
            let actor = "\(appName).app"
            return world.clock.schedule(at: due, label: label) {
                guard mainApp.isRunning(launch) else {
                    return trace.record(.timerLost(label: label, reason: "terminated"), by: actor)
                }
                await system.runAsMainApp(fire)
            }
        }
        return world.clock.schedule(at: due, label: label) {
            await CallbackContext.$current.withValue(context) {
                if let reason = sandbox.whyNotInCallback(generation: context.generation) {
                    trace.record(.timerLost(label: label, reason: reason))
                    return
                }
                await fire()
            }
        }
    }

    public func cancelAppTimer(_ id: AppTimerID) {
        world.clock.cancel(id)
    }

    /// The device's current virtual time.
    public var now: VirtualInstant { world.clock.now }

    /// `UUID().uuidString`, from the world's seeded generator (`UUID()` itself would break
    /// replay), salted with the device's name.
    /// Written digit by digit: `String(format:)` cost more than the rest of an intent.
    public func uuid() -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        let words = [world.random.next() ^ uuidSalt.0, world.random.next() ^ uuidSalt.1]
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for index in 0..<32 {
            if [8, 12, 16, 20].contains(index) { text.append(UInt8(ascii: "-")) }
            let nibble = (words[index / 16] >> UInt64(60 - 4 * (index % 16))) & 0xF
            text.append(digits[Int(nibble)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Picks an element with the world's seeded generator (the only randomness allowed).
    public func randomElement<T>(of items: [T]) -> T? {
        items.randomElement(using: &world.random)
    }
}

/// `OSSignposter` for simulated code: an app marks its own decisions (a challenge issued, XP
/// awarded) in the device's trace as `app` effects, under the process that made them, so that
/// `trace` and the effects of a request show what the app did, not only what it wrote.
public struct Signposter: Sendable {
    @_spi(Host) public let trace: DeviceTrace

    /// Names the trace uses for every effect: an event's fields may not take them (a field so
    /// named is left out of the trace; debug builds stop on it).
    @_spi(Host) public static let reservedNames: Set<String> = ["seq", "t", "time", "kind", "actor", "sandbox", "event"]

    /// `emitEvent(_:)`: records `name` with `fields` (flat in the trace: `xp=15 totalXP=30`).
    public func emitEvent(_ name: String, _ fields: [String: StoredValue] = [:]) {
        assert(Self.reservedNames.isDisjoint(with: fields.keys), "app event fields may not be named \(Self.reservedNames.sorted())")
        trace.record(.app(event: name, fields: fields.filter { !Self.reservedNames.contains($0.key) }))
    }
}
