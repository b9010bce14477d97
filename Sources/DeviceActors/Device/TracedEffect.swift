import ExtensionSandbox
import Foundation
@_spi(Host) import SimulatediOS

/// One effect as it appears in `effects` and `trace.get`: `seq`, `t`, `time`, `kind`, `actor`,
/// `sandbox` (when an extension caused it) and the effect's own fields, flat.
public struct TracedEffect: Sendable, Encodable {
    public let entry: TraceEntry<Effect>
    let calendar: DeviceCalendar

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(entry.sequence, forKey: Key("seq"))
        try c.encode(entry.time.seconds, forKey: Key("t"))
        try c.encode(calendar.isoString(entry.time), forKey: Key("time"))
        try c.encode(entry.payload.kind, forKey: Key("kind"))
        try c.encode(entry.actor, forKey: Key("actor"))
        try c.encodeIfPresent(entry.sandbox, forKey: Key("sandbox"))
        switch entry.payload {
        case .extensionLaunch(let baselineBytes):
            try c.encode(baselineBytes, forKey: Key("baselineBytes"))
        case .extensionCallback(let name):
            try c.encode(name, forKey: Key("callback"))
        case .extensionJetsam(let usedBytes, let budgetBytes):
            try c.encode(usedBytes, forKey: Key("usedBytes"))
            try c.encode(budgetBytes, forKey: Key("budgetBytes"))
        case .extensionTerminate, .reboot:
            break
        case .clockAdvance(let seconds):
            try c.encode(seconds, forKey: Key("seconds"))
        case .storeRead(let suite, let key, let bytes, let seen):
            try c.encode(suite, forKey: Key("suite"))
            try c.encode(key, forKey: Key("key"))
            try c.encode(bytes, forKey: Key("bytes"))
            switch seen {
            case .value(let value): try c.encode(value, forKey: Key("value"))
            case .absent: try c.encodeNil(forKey: Key("value"))
            case nil: break
            }
        case .storeWrite(let suite, let key, let value):
            try c.encode(suite, forKey: Key("suite"))
            try c.encode(key, forKey: Key("key"))
            try c.encode(value, forKey: Key("value"))
        case .storeRemove(let suite, let key), .storeWriteLost(let suite, let key):
            try c.encode(suite, forKey: Key("suite"))
            try c.encode(key, forKey: Key("key"))
        case .race(let lost):
            try c.encode(lost.suite, forKey: Key("suite"))
            try c.encode(lost.key, forKey: Key("key"))
            try c.encode(lost.readSeq, forKey: Key("readSeq"))
            try c.encode(lost.otherActor, forKey: Key("otherActor"))
            try c.encode(lost.otherWriteSeq, forKey: Key("otherWriteSeq"))
            try c.encode(lost.writeSeq, forKey: Key("writeSeq"))
        case .wifi(let ssid):
            try c.encode(ssid, forKey: Key("ssid"))
        case .call(let state):
            try c.encode(state, forKey: Key("call"))
        case .focusMode(let on):
            try c.encode(on, forKey: Key("on"))
        case .appError(let callback, let message):
            try c.encode(callback, forKey: Key("callback"))
            try c.encode(message, forKey: Key("message"))
        case .log(let level, let category, let message):
            try c.encode(level.rawValue, forKey: Key("level"))
            try c.encode(category, forKey: Key("category"))
            try c.encode(message, forKey: Key("message"))
        case .fault(let fault, let operation):
            try c.encode(fault, forKey: Key("fault"))
            try c.encode(operation, forKey: Key("at"))
        case .timerLost(let label, let reason):
            try c.encode(label, forKey: Key("label"))
            try c.encode(reason, forKey: Key("reason"))
        case .taskCancelled(let operation, let reason):
            try c.encode(operation, forKey: Key("at"))
            try c.encode(reason, forKey: Key("reason"))
        case .notificationAuthorization(let granted):
            try c.encode(granted, forKey: Key("granted"))
        case .notificationSuppressed(let title, let body, let reason):
            try c.encode(title, forKey: Key("title"))
            try c.encode(body, forKey: Key("body"))
            try c.encode(reason, forKey: Key("reason"))
        case .notificationScheduled(let identifier, let title, let due):
            try c.encode(identifier, forKey: Key("identifier"))
            try c.encode(title, forKey: Key("title"))
            try c.encode(due, forKey: Key("due"))
        case .notificationRemoved(let identifier):
            try c.encode(identifier, forKey: Key("identifier"))
        case .healthSample(let kind, let value):
            try c.encode(kind, forKey: Key("quantity"))
            try c.encode(value, forKey: Key("value"))
        case .healthFail(let count):
            try c.encode(count, forKey: Key("count"))
        case .appLaunch(let reason):
            try c.encode(reason, forKey: Key("reason"))
        case .appTerminate:
            break
        case .network(let online):
            try c.encode(online, forKey: Key("online"))
        case .networkRequest(let method, let path, let status, let error):
            try c.encode(method, forKey: Key("method"))
            try c.encode(path, forKey: Key("path"))
            try c.encodeIfPresent(status, forKey: Key("status"))
            try c.encodeIfPresent(error, forKey: Key("error"))
        case .push(let title, let body, let category):
            try c.encode(title, forKey: Key("title"))
            try c.encode(body, forKey: Key("body"))
            try c.encodeIfPresent(category, forKey: Key("category"))
        case .automation(let trigger, let shortcut, let outcome):
            try c.encode(trigger, forKey: Key("trigger"))
            try c.encode(shortcut, forKey: Key("shortcut"))
            try c.encode(outcome, forKey: Key("outcome"))
        case .work(let name, let event, let attempt):
            try c.encode(name, forKey: Key("name"))
            try c.encode(event, forKey: Key("event"))
            try c.encode(attempt, forKey: Key("attempt"))
        case .openURL(let url):
            try c.encode(url, forKey: Key("url"))
        case .storeKit(let transaction, let product):
            try c.encode(transaction, forKey: Key("transaction"))
            try c.encode(product, forKey: Key("product"))
        case .contacts(let count):
            try c.encode(count, forKey: Key("count"))
        case .shieldApply(let store, let applications, let categories, let webDomains):
            try c.encode(store, forKey: Key("store"))
            try c.encode(applications, forKey: Key("applications"))
            try c.encode(categories, forKey: Key("categories"))
            if !webDomains.isEmpty { try c.encode(webDomains, forKey: Key("webDomains")) }
        case .shieldClear(let store):
            try c.encode(store, forKey: Key("store"))
        case .shieldShown(let app, let configuration, let source):
            try c.encode(app, forKey: Key("app"))
            try c.encode(configuration.title, forKey: Key("title"))
            try c.encode(configuration.subtitle, forKey: Key("subtitle"))
            try c.encode(configuration.primaryButtonLabel, forKey: Key("primaryButtonLabel"))
            try c.encode(configuration.secondaryButtonLabel, forKey: Key("secondaryButtonLabel"))
            try c.encodeIfPresent(configuration.appearance, forKey: Key("appearance"))
            try c.encode(source.rawValue, forKey: Key("source"))
        case .shieldAction(let app, let button, let response):
            try c.encode(app, forKey: Key("app"))
            try c.encode(button.rawValue, forKey: Key("button"))
            try c.encode(response.rawValue, forKey: Key("response"))
        case .notification(let title, let body):
            try c.encode(title, forKey: Key("title"))
            try c.encode(body, forKey: Key("body"))
        case .monitorIntervalStart(let activity), .monitorIntervalEnd(let activity),
            .activityStart(let activity), .activityStop(let activity):
            try c.encode(activity, forKey: Key("activity"))
        case .monitorThreshold(let activity, let event):
            try c.encode(activity, forKey: Key("activity"))
            try c.encode(event, forKey: Key("event"))
        case .monitorWarning(let activity, let warning, let event):
            try c.encode(activity, forKey: Key("activity"))
            try c.encode(warning.rawValue, forKey: Key("warning"))
            try c.encodeIfPresent(event, forKey: Key("event"))
        case .appState(let locked, let foregroundApp, let shieldShown):
            try c.encode(locked, forKey: Key("locked"))
            try c.encode(foregroundApp, forKey: Key("foregroundApp"))
            try c.encode(shieldShown, forKey: Key("shieldShown"))
        case .intent(let name):
            try c.encode(name, forKey: Key("name"))
        case .app(let event, let fields):
            try c.encode(event, forKey: Key("event"))
            for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
                try c.encode(value, forKey: Key(name))
            }
        }
    }
}
