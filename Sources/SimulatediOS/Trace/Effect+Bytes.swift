extension Effect {
    /// The bytes this effect holds beyond its fixed size, roughly: its strings and values.
    /// The trace is bounded by the sum (``DeviceTrace``), so a value of a megabyte written
    /// once counts as a megabyte, and a hundred thousand small effects as the little they hold.
    public var heldBytes: Int {
        switch self {
        case .extensionLaunch, .extensionCallback, .extensionJetsam, .extensionTerminate, .clockAdvance, .reboot,
            .focusMode, .contacts:
            return 0
        case .storeRead(let suite, let key, _, let seen):
            return suite.utf8.count + key.utf8.count + (seen?.storedValue?.heldBytes ?? 0)
        case .storeRemove(let suite, let key), .storeWriteLost(let suite, let key):
            return suite.utf8.count + key.utf8.count
        case .storeWrite(let suite, let key, let value):
            return suite.utf8.count + key.utf8.count + value.heldBytes
        case .race(let lost):
            return lost.suite.utf8.count + lost.key.utf8.count + lost.otherActor.utf8.count
        case .shieldApply(let store, let applications, _, let webDomains):
            return store.utf8.count + (applications + webDomains).reduce(0) { $0 + $1.utf8.count + 16 }
        case .shieldClear(let store):
            return store.utf8.count
        case .shieldShown(let app, let configuration, _):
            return app.utf8.count + configuration.title.utf8.count + configuration.subtitle.utf8.count
                + configuration.primaryButtonLabel.utf8.count + (configuration.secondaryButtonLabel?.utf8.count ?? 0)
                + (configuration.appearance == nil ? 0 : 128)
        case .shieldAction(let app, _, _):
            return app.utf8.count
        case .notification(let title, let body):
            return title.utf8.count + body.utf8.count
        case .monitorIntervalStart(let activity), .monitorIntervalEnd(let activity), .activityStart(let activity),
            .activityStop(let activity):
            return activity.utf8.count
        case .monitorThreshold(let activity, let event):
            return activity.utf8.count + event.utf8.count
        case .monitorWarning(let activity, _, let event):
            return activity.utf8.count + (event?.utf8.count ?? 0)
        case .appState(_, let foregroundApp, _):
            return foregroundApp?.utf8.count ?? 0
        case .intent(let name):
            return name.utf8.count
        case .wifi(let ssid):
            return ssid?.utf8.count ?? 0
        case .call(let state):
            return state?.handle?.utf8.count ?? 0
        case .openURL(let url):
            return url.utf8.count
        case .storeKit(let transaction, let product):
            return transaction.utf8.count + product.utf8.count
        case .app(let event, let fields):
            return event.utf8.count + fields.reduce(0) { $0 + $1.key.utf8.count + $1.value.heldBytes }
        case .log(_, let category, let message):
            return category.utf8.count + message.utf8.count
        case .appError(let callback, let message):
            return callback.utf8.count + message.utf8.count
        case .fault(let fault, let operation):
            return fault.utf8.count + operation.utf8.count
        case .timerLost(let label, let reason), .taskCancelled(let label, let reason):
            return label.utf8.count + reason.utf8.count
        case .notificationAuthorization:
            return 1
        case .notificationSuppressed(let title, let body, let reason):
            return title.utf8.count + body.utf8.count + reason.utf8.count
        case .notificationScheduled(let identifier, let title, let due):
            return identifier.utf8.count + title.utf8.count + due.utf8.count
        case .notificationRemoved(let identifier):
            return identifier.utf8.count
        case .healthSample(let kind, _):
            return kind.utf8.count + 8
        case .healthFail, .appTerminate:
            return 8
        case .appLaunch(let reason):
            return reason.utf8.count
        case .network:
            return 1
        case .networkRequest(let method, let path, _, let error):
            return method.utf8.count + path.utf8.count + 8 + (error?.utf8.count ?? 0)
        case .push(let title, let body, let category):
            return title.utf8.count + body.utf8.count + (category?.utf8.count ?? 0)
        case .automation(let trigger, let shortcut, let outcome):
            return trigger.utf8.count + shortcut.utf8.count + outcome.utf8.count
        case .work(let name, let event, _):
            return name.utf8.count + event.utf8.count + 8
        }
    }
}

extension StoredValue {
    /// The bytes this value holds, roughly (16 for a number or a flag).
    public var heldBytes: Int {
        switch self {
        case .bool, .int, .double: 16
        case .string(let text): 16 + text.utf8.count
        case .data(let bytes): 16 + bytes.count
        case .array(let values): values.reduce(16) { $0 + $1.heldBytes }
        case .dictionary(let members): members.reduce(16) { $0 + $1.key.utf8.count + $1.value.heldBytes }
        }
    }
}
