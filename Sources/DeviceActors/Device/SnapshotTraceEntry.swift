import ExtensionSandbox
import Foundation
@_spi(Host) import SimulatediOS

/// A trace event as a snapshot keeps it: its wire form (``TracedEffect``, as `trace.get` gives
/// it), and read back into the entry it was. A device restored from a snapshot so has the trace
/// it had, and a restart after a compaction shows what one before it showed.
public struct SnapshotTraceEntry: Sendable, Codable {
    public let entry: TraceEntry<Effect>
    let calendar: DeviceCalendar?

    init(_ effect: TracedEffect) {
        entry = effect.entry
        calendar = effect.calendar
    }

    public func encode(to encoder: any Encoder) throws {
        guard let calendar else { throw EncodingError.invalidValue(entry.sequence, .init(codingPath: [], debugDescription: "no calendar")) }
        try TracedEffect(entry: entry, calendar: calendar).encode(to: encoder)
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The members every event has; the rest are its kind's own (an `app` event's fields).
    private static let common: Set<String> = ["seq", "t", "time", "kind", "actor", "sandbox"]

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        func string(_ name: String) throws -> String { try c.decode(String.self, forKey: Key(name)) }
        func optionalString(_ name: String) throws -> String? { try c.decodeIfPresent(String.self, forKey: Key(name)) }
        func int(_ name: String) throws -> Int { try c.decode(Int.self, forKey: Key(name)) }
        func raw<Value: RawRepresentable>(_ name: String) throws -> Value where Value.RawValue == String {
            let text = try string(name)
            guard let value = Value(rawValue: text) else {
                throw DecodingError.dataCorruptedError(forKey: Key(name), in: c, debugDescription: "unknown \(text)")
            }
            return value
        }
        let kind = try string("kind")
        let payload: Effect
        switch kind {
        case "extension.launch": payload = .extensionLaunch(baselineBytes: try int("baselineBytes"))
        case "extension.callback": payload = .extensionCallback(name: try string("callback"))
        case "extension.jetsam": payload = .extensionJetsam(usedBytes: try int("usedBytes"), budgetBytes: try int("budgetBytes"))
        case "extension.terminate": payload = .extensionTerminate
        case "device.reboot": payload = .reboot
        case "clock.advance": payload = .clockAdvance(seconds: try c.decode(Double.self, forKey: Key("seconds")))
        case "store.read":
            let seen: ReadValue? =
                c.contains(Key("value")) ? ReadValue(try c.decodeIfPresent(StoredValue.self, forKey: Key("value"))) : nil
            payload = .storeRead(suite: try string("suite"), key: try string("key"), bytes: try int("bytes"), seen: seen)
        case "store.write":
            payload = .storeWrite(
                suite: try string("suite"), key: try string("key"), value: try c.decode(StoredValue.self, forKey: Key("value")))
        case "store.remove": payload = .storeRemove(suite: try string("suite"), key: try string("key"))
        case "store.writeLost": payload = .storeWriteLost(suite: try string("suite"), key: try string("key"))
        case "race":
            payload = .race(
                LostUpdate(
                    suite: try string("suite"), key: try string("key"), readSeq: try int("readSeq"),
                    otherActor: try string("otherActor"), otherWriteSeq: try int("otherWriteSeq"), writeSeq: try int("writeSeq")))
        case "wifi": payload = .wifi(ssid: try optionalString("ssid"))
        case "call": payload = .call(try c.decodeIfPresent(CallState.self, forKey: Key("call")))
        case "focusMode": payload = .focusMode(on: try c.decode(Bool.self, forKey: Key("on")))
        case "app.error": payload = .appError(callback: try string("callback"), message: try string("message"))
        case "log": payload = .log(level: try raw("level"), category: try string("category"), message: try string("message"))
        case "fault": payload = .fault(fault: try string("fault"), at: try string("at"))
        case "timer.lost": payload = .timerLost(label: try string("label"), reason: try string("reason"))
        case "task.cancelled": payload = .taskCancelled(at: try string("at"), reason: try string("reason"))
        case "notification.authorization":
            payload = .notificationAuthorization(granted: try c.decode(Bool.self, forKey: Key("granted")))
        case "health.sample":
            payload = .healthSample(kind: try string("quantity"), value: try c.decode(Double.self, forKey: Key("value")))
        case "health.fail": payload = .healthFail(count: try int("count"))
        case "app.launch": payload = .appLaunch(reason: try string("reason"))
        case "app.terminate": payload = .appTerminate
        case "network": payload = .network(online: try c.decode(Bool.self, forKey: Key("online")))
        case "network.request":
            payload = .networkRequest(
                method: try string("method"), path: try string("path"),
                status: try c.decodeIfPresent(Int.self, forKey: Key("status")), error: try optionalString("error"))
        case "notification.push":
            payload = .push(title: try string("title"), body: try string("body"), category: try optionalString("category"))
        case "automation":
            payload = .automation(trigger: try string("trigger"), shortcut: try string("shortcut"), outcome: try string("outcome"))
        case "work": payload = .work(name: try string("name"), event: try string("event"), attempt: try int("attempt"))
        case "notification.scheduled":
            payload = .notificationScheduled(identifier: try string("identifier"), title: try string("title"), due: try string("due"))
        case "notification.removed": payload = .notificationRemoved(identifier: try string("identifier"))
        case "notification.suppressed":
            payload = .notificationSuppressed(title: try string("title"), body: try string("body"), reason: try string("reason"))
        case "openURL": payload = .openURL(url: try string("url"))
        case "storekit": payload = .storeKit(transaction: try string("transaction"), product: try string("product"))
        case "contacts": payload = .contacts(count: try int("count"))
        case "shield.apply":
            payload = .shieldApply(
                store: try string("store"), applications: try c.decode([String].self, forKey: Key("applications")),
                categories: try c.decode(CategoryPolicy.self, forKey: Key("categories")),
                webDomains: try c.decodeIfPresent([String].self, forKey: Key("webDomains")) ?? [])
        case "shield.clear": payload = .shieldClear(store: try string("store"))
        case "shield.shown":
            var configuration = ShieldConfiguration(
                title: try string("title"), subtitle: try string("subtitle"),
                primaryButtonLabel: try string("primaryButtonLabel"),
                secondaryButtonLabel: try optionalString("secondaryButtonLabel"))
            configuration.appearance = try c.decodeIfPresent(ShieldAppearance.self, forKey: Key("appearance"))
            payload = .shieldShown(app: try string("app"), configuration: configuration, source: try raw("source"))
        case "shield.action": payload = .shieldAction(app: try string("app"), button: try raw("button"), response: try raw("response"))
        case "notification": payload = .notification(title: try string("title"), body: try string("body"))
        case "monitor.intervalStart": payload = .monitorIntervalStart(activity: try string("activity"))
        case "monitor.intervalEnd": payload = .monitorIntervalEnd(activity: try string("activity"))
        case "activity.start": payload = .activityStart(activity: try string("activity"))
        case "activity.stop": payload = .activityStop(activity: try string("activity"))
        case "monitor.threshold": payload = .monitorThreshold(activity: try string("activity"), event: try string("event"))
        case "monitor.warning":
            payload = .monitorWarning(activity: try string("activity"), warning: try raw("warning"), event: try optionalString("event"))
        case "app.state":
            payload = .appState(
                locked: try c.decode(Bool.self, forKey: Key("locked")), foregroundApp: try optionalString("foregroundApp"),
                shieldShown: try c.decode(Bool.self, forKey: Key("shieldShown")))
        case "intent": payload = .intent(name: try string("name"))
        case "app":
            var fields: [String: StoredValue] = [:]
            for key in c.allKeys where !Self.common.contains(key.stringValue) && key.stringValue != "event" {
                fields[key.stringValue] = try c.decode(StoredValue.self, forKey: key)
            }
            payload = .app(event: try string("event"), fields: fields)
        default:
            throw DecodingError.dataCorruptedError(forKey: Key("kind"), in: c, debugDescription: "unknown kind \(kind)")
        }
        let seconds = try c.decode(Double.self, forKey: Key("t"))
        // A damaged file's `t` past what milliseconds in an Int64 hold is refused, not trapped on.
        guard seconds.isFinite, abs(seconds) < 9e15 else {
            throw DecodingError.dataCorruptedError(forKey: Key("t"), in: c, debugDescription: "\(seconds) is no virtual time")
        }
        entry = TraceEntry(
            sequence: try int("seq"), time: VirtualInstant(milliseconds: Int64((seconds * 1000).rounded())),
            actor: try string("actor"), sandbox: try optionalString("sandbox"), payload: payload)
        calendar = nil
    }
}
