@_spi(Host) import SimulatediOS

/// How an effect is named on an exported trace's timeline (``PerfettoTrace``): short enough to
/// read on a slice, with the one field that tells it from its neighbours. Every field is in the
/// event's `args`.
extension Effect {
    /// The name of the effect's slice or instant: `write frictionLevel`, `shield.apply friction`.
    var traceLabel: String {
        switch self {
        case .extensionLaunch: "launch"
        case .extensionCallback(let name): name
        case .extensionJetsam: "jetsam"
        case .extensionTerminate: "terminate"
        case .storeRead(_, let key, _, _): "read \(key)"
        case .storeWrite(_, let key, _): "write \(key)"
        case .storeRemove(_, let key): "remove \(key)"
        case .storeWriteLost(_, let key): "write lost \(key)"
        case .shieldApply(let store, _, _, _): "shield.apply \(store)"
        case .shieldClear(let store): "shield.clear \(store)"
        case .shieldShown(let app, _, _): "shield.shown \(app)"
        case .shieldAction(_, let button, let response): "shield.action \(button.rawValue) → \(response.rawValue)"
        case .notification(let title, _): "notification \(title)"
        case .monitorIntervalStart(let activity): "intervalStart \(activity)"
        case .monitorIntervalEnd(let activity): "intervalEnd \(activity)"
        case .monitorThreshold(_, let event): "threshold \(event)"
        case .monitorWarning(let activity, let warning, let event): "\(warning.rawValue) \(event ?? activity)"
        case .activityStart(let activity): "startMonitoring \(activity)"
        case .activityStop(let activity): "stopMonitoring \(activity)"
        case .appState(let locked, let foregroundApp, let shieldShown):
            locked ? "locked" : shieldShown ? "shielded \(foregroundApp ?? "")" : "foreground \(foregroundApp ?? "home")"
        case .intent(let name): "intent \(name)"
        case .clockAdvance(let seconds): "advance \(seconds == seconds.rounded() ? String(Int64(seconds)) : String(seconds)) s"
        case .wifi(let ssid): ssid.map { "wifi \($0)" } ?? "wifi left"
        case .call(let state): state.map { $0.hasEnded ? "call ended" : $0.hasConnected ? "call connected" : "call dialing" } ?? "call"
        case .contacts(let count): "contacts \(count)"
        case .reboot: "reboot"
        case .focusMode(let on): on ? "focus mode on" : "focus mode off"
        case .openURL(let url): "open \(url)"
        case .appError(let callback, _): "error in \(callback)"
        case .log(let level, _, let message): "\(level.rawValue): \(message)"
        case .fault(let fault, let operation): "fault \(fault) at \(operation)"
        case .timerLost(let label, let reason): "timer \(label) lost (\(reason))"
        case .taskCancelled(let operation, let reason): "task cancelled at \(operation) (\(reason))"
        case .notificationAuthorization(let granted): "notifications \(granted ? "allowed" : "denied")"
        case .notificationSuppressed(let title, _, let reason): "notification \(title) not shown (\(reason))"
        case .notificationScheduled(let identifier, _, let due): "notification \(identifier) due \(due)"
        case .notificationRemoved(let identifier): "notification \(identifier) removed"
        case .healthSample(let kind, let value): "\(kind) +\(value)"
        case .healthFail(let count): "next \(count) HealthKit queries fail"
        case .appLaunch(let reason): "launch (\(reason))"
        case .appTerminate: "terminated"
        case .network(let online): online ? "online" : "offline"
        case .networkRequest(let method, let path, let status, let error): "\(method) \(path) \(status.map(String.init) ?? error ?? "")"
        case .push(let title, _, let category): "push \(category ?? title)"
        case .automation(let trigger, _, let outcome): "automation \(trigger) \(outcome)"
        case .work(let name, let event, _): "work \(name) \(event)"
        case .storeKit(let transaction, let product): "\(transaction) \(product)"
        case .app(let event, _): event
        case .race(let lost): "race \(lost.key) (lost \(lost.otherActor)'s write)"
        }
    }

    /// The slice's category (`cat`): the kind's first word (`store`, `shield`, `extension`).
    var traceCategory: String {
        String(kind.prefix { $0 != "." })
    }
}
