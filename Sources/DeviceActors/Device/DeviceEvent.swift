@_spi(Host) import SimulatediOS

/// An input from the outside world (docs/protocol.md, Event types). Decoded from the `event`
/// method's params: `type` plus the type's fields.
public enum DeviceEvent: Sendable, Equatable {
    case lock
    case unlock
    /// The device restarts: locked, no app open, every extension process ended, data protected
    /// until the first unlock.
    case reboot
    /// An app comes to the front; or a website opens in Safari (`web.open domain=…` is
    /// `appOpen(app: "web:<domain>")`, docs/platform.md, Web domains).
    case appOpen(app: String)
    case appClose(app: String)
    /// `taps` presses at once (a double tap): each its own ShieldAction callback, interleaving at
    /// every platform call (docs/platform.md, "Shield flow").
    case shieldPress(app: String, button: ShieldButton, taps: Int = 1)
    case callDial(handle: String?)
    case callConnect(handle: String?)
    case callEnd(handle: String?)
    case wifiJoin(ssid: String)
    case wifiLeave(ssid: String?)
    case contactsSet([Contact])
    case storeKitPurchase(product: String)
    case storeKitExpire(product: String)
    case storeKitRefund(product: String)
    /// A HealthKit sample: `value` (> 0) added to today's `kind` (docs/platform.md, "HealthKit").
    case healthSample(kind: HealthQuantityType, value: Double)
    /// The next `count` HealthKit statistics queries throw.
    case healthFail(count: Int)
    /// The system ends the main app's process (docs/platform.md, "The main app's process"): its
    /// timers and observers are gone; the next `app.open` launches it again.
    case appTerminate(app: String)
    /// Internet reachability lost / back (docs/platform.md, "Network"): requests fail as a lost
    /// connection.
    case networkOffline
    case networkOnline

    /// The event's wire name.
    public var type: String {
        switch self {
        case .lock: "lock"
        case .unlock: "unlock"
        case .reboot: "device.reboot"
        case .appOpen: "app.open"
        case .appClose: "app.close"
        case .shieldPress: "shield.press"
        case .callDial: "call.dial"
        case .callConnect: "call.connect"
        case .callEnd: "call.end"
        case .wifiJoin: "wifi.join"
        case .wifiLeave: "wifi.leave"
        case .contactsSet: "contacts.set"
        case .storeKitPurchase: "storekit.purchase"
        case .storeKitExpire: "storekit.expire"
        case .storeKitRefund: "storekit.refund"
        case .healthSample: "health.sample"
        case .healthFail: "health.fail"
        case .appTerminate: "app.terminate"
        case .networkOffline: "network.offline"
        case .networkOnline: "network.online"
        }
    }

    /// The most presses one `shield.press` delivers at once: each is a callback of its own.
    public static let maxTaps = 10

    /// Every event type this build simulates.
    public static let types = [
        "lock", "unlock", "device.reboot", "app.open", "app.close", "shield.press", "call.dial", "call.connect", "call.end",
        "wifi.join", "wifi.leave", "contacts.set", "storekit.purchase", "storekit.expire", "storekit.refund",
        "health.sample", "health.fail", "app.terminate", "network.offline", "network.online", "web.open", "web.close",
    ]

    /// The largest `health.sample` value and `health.fail` count one event may carry.
    public static let maxHealthValue = 1_000_000.0
    public static let maxHealthFailures = 1_000
}

extension DeviceEvent: Decodable {
    private enum Field: String, CodingKey {
        case type, app, button, handle, ssid, contacts, product, taps, kind, value, count, domain
    }

    /// Decodes an event from the `event` method's params: `type` plus that type's own fields
    /// (docs/protocol.md, Event types). An unknown type throws ``DeviceError/unknownEvent(_:)``.
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Field.self)
        let type = try fields.decode(String.self, forKey: .type)
        /// A required string that must not be empty (a bundle id, an SSID, a product id).
        func name(_ field: Field) throws -> String {
            let value = try fields.decode(String.self, forKey: field)
            guard !value.isEmpty else {
                throw DecodingError.dataCorruptedError(forKey: field, in: fields, debugDescription: "must not be empty")
            }
            return value
        }
        /// A website: `domain`, normalized as iOS keeps one (``WebDomain/normalized(_:)``), as the
        /// device names it where an app would stand (``WebDomain/foregroundName(_:)``).
        func website() throws -> String {
            do {
                return WebDomain.foregroundName(try WebDomain.normalized(try fields.decode(String.self, forKey: .domain)))
            } catch let error as WebDomain.InvalidDomain {
                throw DecodingError.dataCorruptedError(forKey: .domain, in: fields, debugDescription: error.reason)
            }
        }
        /// An app's bundle id, or a website's name (`web:reddit.com`) with its domain normalized:
        /// `web:REDDIT.com` is `web.open domain=reddit.com`, and `web:` or `web:a b/c` is refused.
        func appOrWebsite() throws -> String {
            do {
                return try WebDomain.normalizedForegroundName(try name(.app))
            } catch let error as WebDomain.InvalidDomain {
                throw DecodingError.dataCorruptedError(forKey: .app, in: fields, debugDescription: "web:<domain>, whose domain \(error.reason)")
            }
        }
        switch type {
        case "lock": self = .lock
        case "web.open": self = .appOpen(app: try website())
        case "web.close": self = .appClose(app: try website())
        case "unlock": self = .unlock
        case "device.reboot": self = .reboot
        case "app.open": self = .appOpen(app: try appOrWebsite())
        case "app.close": self = .appClose(app: try appOrWebsite())
        case "shield.press":
            let app = fields.contains(.domain) && !fields.contains(.app) ? try website() : try appOrWebsite()
            guard let button = ShieldButton(rawValue: try fields.decode(String.self, forKey: .button)) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .button, in: fields, debugDescription: "must be primary or secondary")
            }
            let taps = try fields.decodeIfPresent(Int.self, forKey: .taps) ?? 1
            guard (1...Self.maxTaps).contains(taps) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .taps, in: fields, debugDescription: "must be 1 to \(Self.maxTaps)")
            }
            self = .shieldPress(app: app, button: button, taps: taps)
        case "call.dial": self = .callDial(handle: try fields.decodeIfPresent(String.self, forKey: .handle))
        case "call.connect": self = .callConnect(handle: try fields.decodeIfPresent(String.self, forKey: .handle))
        case "call.end": self = .callEnd(handle: try fields.decodeIfPresent(String.self, forKey: .handle))
        case "wifi.join": self = .wifiJoin(ssid: try name(.ssid))
        case "wifi.leave": self = .wifiLeave(ssid: try fields.decodeIfPresent(String.self, forKey: .ssid))
        case "contacts.set": self = .contactsSet(try fields.decodeIfPresent([Contact].self, forKey: .contacts) ?? [])
        case "storekit.purchase": self = .storeKitPurchase(product: try name(.product))
        case "storekit.expire": self = .storeKitExpire(product: try name(.product))
        case "storekit.refund": self = .storeKitRefund(product: try name(.product))
        case "health.sample":
            let kind = try fields.decode(HealthQuantityType.self, forKey: .kind)
            let value = try fields.decode(Double.self, forKey: .value)
            guard value > 0, value <= Self.maxHealthValue else {
                throw DecodingError.dataCorruptedError(
                    forKey: .value, in: fields, debugDescription: "must be > 0 and at most \(Int(Self.maxHealthValue))")
            }
            self = .healthSample(kind: kind, value: value)
        case "health.fail":
            let count = try fields.decode(Int.self, forKey: .count)
            guard (1...Self.maxHealthFailures).contains(count) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .count, in: fields, debugDescription: "must be 1 to \(Self.maxHealthFailures)")
            }
            self = .healthFail(count: count)
        case "app.terminate": self = .appTerminate(app: try appOrWebsite())
        case "network.offline": self = .networkOffline
        case "network.online": self = .networkOnline
        default: throw DeviceError.unknownEvent(type)
        }
    }
}

