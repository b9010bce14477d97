import ExtensionSandbox

/// Everything a device can do that a user or test would notice. Each effect is traced with its
/// virtual time, actor and sandbox, and returned by the request that caused it.
///
/// On the wire an effect is a flat object: `kind` (e.g. `store.write`) plus the case's fields.
public enum Effect: Sendable, Equatable {
    case extensionLaunch(baselineBytes: Int)
    case extensionCallback(name: String)
    case extensionJetsam(usedBytes: Int, budgetBytes: Int)
    case extensionTerminate
    /// `seen`: what the read returned, when the device traces every read with its value
    /// (``AppGroupContainer``; scenario runs); nil otherwise.
    case storeRead(suite: String, key: String, bytes: Int, seen: ReadValue? = nil)
    case storeWrite(suite: String, key: String, value: StoredValue)
    case storeRemove(suite: String, key: String)
    /// A write lost to `lateDefaultsPropagation`: its process ended before it reached the store.
    case storeWriteLost(suite: String, key: String)
    /// A lost update the race detector found (config `raceDetector`): traced under the process
    /// whose write overwrote another process's value unseen.
    case race(LostUpdate)
    /// A store's shield after a write: its applications, categories and (when any) web domains.
    case shieldApply(store: String, applications: [String], categories: CategoryPolicy, webDomains: [String] = [])
    case shieldClear(store: String)
    case shieldShown(app: String, configuration: ShieldConfiguration, source: ShieldConfigurationSource)
    case shieldAction(app: String, button: ShieldButton, response: ShieldActionResponse)
    case notification(title: String, body: String)
    case monitorIntervalStart(activity: String)
    case monitorIntervalEnd(activity: String)
    case monitorThreshold(activity: String, event: String)
    case monitorWarning(activity: String, warning: MonitorWarning, event: String?)
    case activityStart(activity: String)
    case activityStop(activity: String)
    case appState(locked: Bool, foregroundApp: String?, shieldShown: Bool)
    case intent(name: String)
    case clockAdvance(seconds: Double)
    case wifi(ssid: String?)
    case call(CallState?)
    case contacts(count: Int)
    case reboot
    case focusMode(on: Bool)
    case openURL(url: String)
    case storeKit(transaction: String, product: String)
    /// A decision of the app's own, named as its seed names it (`challengeIssued`, `xpAwarded`),
    /// with the facts that go with it (``Signposter``).
    case app(event: String, fields: [String: StoredValue])
    /// An error the app or one of its extensions threw out of a callback, a timer or an observer
    /// (`callback` names it), which nothing else would show: traced, never dropped. A jetsam is
    /// not one (it is `extension.jetsam`).
    case appError(callback: String, message: String)
    /// A message the app logged (``Logger``, `os.Logger` on iOS): its level, the logger's
    /// category and the text. Volatile, and not an observable effect a test must list.
    case log(level: LogLevel, category: String, message: String)
    /// A fault injected by an exploration (``FaultPlan``; docs/platform.md, Faults): `fault` is
    /// its kind (`jetsam`, `callbackDropped`, `callbackDelayed`, `reboot`), `at` what it struck (`read group.x/key`,
    /// `intervalDidStart(daily)`).
    case fault(fault: String, at: String)
    /// A timer an extension set (`label`) came due after its process had ended or gone idle
    /// (`reason`: `ended` or `suspended`): it never runs, as on iOS, where a timer lives in its
    /// process (``Platform/scheduleAppTimer(after:label:action:)``).
    case timerLost(label: String, reason: String)
    /// A task went on after its process could run it, and was cut at `at`, its next platform
    /// call (it gets a `CancellationError`), as on iOS, where a task lives in its process:
    /// `reason` `ended` or `suspended` for one an extension's callback started, after the callback
    /// returned; `terminated` for main-app code whose launch ended (`app.terminate`, a reboot).
    case taskCancelled(at: String, reason: String)
    /// The user's answer the first time the app asked to post notifications
    /// (`UNUserNotificationCenter.requestAuthorization`; config `notificationPermission`).
    case notificationAuthorization(granted: Bool)
    /// A notification the app posted that iOS did not show: the app never asked for
    /// authorization (`reason` `notDetermined`) or the user said no (`denied`).
    case notificationSuppressed(title: String, body: String, reason: String)
    /// A notification request with a trigger, pending until `due` (ISO time; a repeating one is
    /// traced again each time it is armed): `UNUserNotificationCenter.add(_:)`.
    case notificationScheduled(identifier: String, title: String, due: String)
    /// A pending request removed before it was delivered (`removePendingNotificationRequests`).
    case notificationRemoved(identifier: String)
    /// A HealthKit sample the outside world recorded (`health.sample`).
    case healthSample(kind: String, value: Double)
    /// The next `count` HealthKit queries will fail (`health.fail`).
    case healthFail(count: Int)
    /// The main app's process started (`reason`: `open`, the user opened it; `healthDelivery`, the
    /// system relaunched it in the background to deliver HealthKit samples).
    case appLaunch(reason: String)
    /// The main app's process ended (`app.terminate`): its timers and observer queries are gone.
    case appTerminate
    /// The device went offline or came back online (`network.offline` / `network.online`).
    case network(online: Bool)
    /// A request the app sent (`NetworkSession.data(for:)`): the server's `status`, or the
    /// `URLError` code the app got (`notConnectedToInternet`, `cannotFindHost`).
    case networkRequest(method: String, path: String, status: Int?, error: String?)
    /// A push notification the system showed (`category`: the app's own kind).
    case push(title: String, body: String, category: String?)
    /// A Shortcuts personal automation: `installed`, `removed`, `ran` (the App Shortcut ran) or
    /// `askBeforeRunning` (it waits for a tap and records nothing).
    case automation(trigger: String, shortcut: String, outcome: String)
    /// A WorkManager unique work's transition (`enqueued`, `cancelled`, `started`, `succeeded`,
    /// `retry`, `failed`, `waitingForNetwork`, `kept`, `cancelledRunEnded`), with its attempt count.
    case work(name: String, event: String, attempt: Int)

    /// Every ``kind`` an effect can have, in the order of the cases.
    public static let kinds = [
        "extension.launch", "extension.callback", "extension.jetsam", "extension.terminate", "store.read", "store.write",
        "store.remove", "store.writeLost", "race", "shield.apply", "shield.clear", "shield.shown", "shield.action",
        "notification", "monitor.intervalStart", "monitor.intervalEnd", "monitor.threshold", "monitor.warning",
        "activity.start", "activity.stop", "app.state", "intent", "clock.advance", "wifi", "call", "contacts",
        "device.reboot", "focusMode", "openURL", "storekit", "app", "app.error", "fault", "timer.lost",
        "task.cancelled",
        "notification.authorization", "notification.suppressed", "health.sample", "health.fail", "app.launch",
        "app.terminate", "network", "network.request", "notification.push", "automation", "work", "log",
        "notification.scheduled", "notification.removed",
    ]

    /// The wire name of the effect (`kind`).
    public var kind: String {
        switch self {
        case .extensionLaunch: "extension.launch"
        case .extensionCallback: "extension.callback"
        case .extensionJetsam: "extension.jetsam"
        case .extensionTerminate: "extension.terminate"
        case .storeRead: "store.read"
        case .storeWrite: "store.write"
        case .storeRemove: "store.remove"
        case .storeWriteLost: "store.writeLost"
        case .race: "race"
        case .shieldApply: "shield.apply"
        case .shieldClear: "shield.clear"
        case .shieldShown: "shield.shown"
        case .shieldAction: "shield.action"
        case .notification: "notification"
        case .monitorIntervalStart: "monitor.intervalStart"
        case .monitorIntervalEnd: "monitor.intervalEnd"
        case .monitorThreshold: "monitor.threshold"
        case .monitorWarning: "monitor.warning"
        case .activityStart: "activity.start"
        case .activityStop: "activity.stop"
        case .appState: "app.state"
        case .intent: "intent"
        case .clockAdvance: "clock.advance"
        case .wifi: "wifi"
        case .call: "call"
        case .contacts: "contacts"
        case .reboot: "device.reboot"
        case .focusMode: "focusMode"
        case .openURL: "openURL"
        case .appError: "app.error"
        case .storeKit: "storekit"
        case .app: "app"
        case .fault: "fault"
        case .timerLost: "timer.lost"
        case .taskCancelled: "task.cancelled"
        case .notificationAuthorization: "notification.authorization"
        case .notificationSuppressed: "notification.suppressed"
        case .healthSample: "health.sample"
        case .healthFail: "health.fail"
        case .appLaunch: "app.launch"
        case .appTerminate: "app.terminate"
        case .network: "network"
        case .networkRequest: "network.request"
        case .push: "notification.push"
        case .automation: "automation"
        case .work: "work"
        case .log: "log"
        case .notificationScheduled: "notification.scheduled"
        case .notificationRemoved: "notification.removed"
        }
    }
}

extension Effect {
    /// Whether the change this effect records must be on disk before the request that caused it
    /// is answered (the daemon then waits for its journal record to be synced).
    ///
    /// Durable: what a user set or an app stored, and time: App Group values, shields,
    /// activities and their callbacks, radios, calls, contacts, purchases, notifications and the
    /// user's answer to the app's notification request, lock
    /// state and the frontmost app, the clock, an intent and the app's own decisions (its data
    /// changed).
    /// Volatile: what only a process's life shows (extensions launching, running, ending, being
    /// jetsammed; reads; a race found, a finding about a write that is traced, durable, on its
    /// own; a shield being drawn or pressed; a notification iOS did not show; a URL opened, whose consequences are effects of their
    /// own). A power cut that loses the last volatile changes loses nothing a user set; every
    /// change, volatile or not, is written before the reply, so `kill -9` loses none.
    public var isDurable: Bool {
        switch self {
        case .storeWrite, .storeRemove, .shieldApply, .shieldClear, .notification, .monitorIntervalStart,
            .monitorIntervalEnd, .monitorThreshold, .monitorWarning, .activityStart, .activityStop, .appState, .intent,
            .clockAdvance, .wifi, .call, .contacts, .reboot, .focusMode, .storeKit, .app, .notificationAuthorization, .healthSample, .healthFail, .appLaunch, .appTerminate,
            .network, .networkRequest, .push, .automation, .work, .notificationScheduled, .notificationRemoved:
            true
        case .extensionLaunch, .extensionCallback, .extensionJetsam, .extensionTerminate, .storeRead, .storeWriteLost,
            .race, .shieldShown, .shieldAction, .openURL, .appError, .fault, .timerLost, .taskCancelled,
            .notificationSuppressed, .log:
            false
        }
    }

    @_spi(Host) public init(_ event: SandboxEvent) {
        switch event {
        case .launch(let baselineBytes): self = .extensionLaunch(baselineBytes: baselineBytes)
        case .callback(let name): self = .extensionCallback(name: name)
        case .jetsam(let usedBytes, let budgetBytes): self = .extensionJetsam(usedBytes: usedBytes, budgetBytes: budgetBytes)
        case .terminate: self = .extensionTerminate
        case .fault(let fault, let operation): self = .fault(fault: fault.rawValue, at: operation)
        case .taskCancelled(let reason, let operation): self = .taskCancelled(at: operation, reason: reason)
        }
    }
}

/// Which warning callback of `DeviceActivityMonitor` fired.
public enum MonitorWarning: String, Sendable, Codable {
    case intervalWillStart
    case intervalWillEnd
    case eventWillReachThreshold
}
