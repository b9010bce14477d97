/// An input from the outside world (PROTOCOL.md, Event types). Decoded from the `event`
/// method's params: `type` plus the type's fields.
public enum DeviceEvent: Sendable, Equatable {
    case lock
    case unlock
    /// The device restarts: locked, no app open, every extension process ended, data protected
    /// until the first unlock.
    case reboot
    case appOpen(app: String)
    case appClose(app: String)
    case shieldPress(app: String, button: ShieldButton)
    case callDial(handle: String?)
    case callConnect(handle: String?)
    case callEnd(handle: String?)
    case wifiJoin(ssid: String)
    case wifiLeave(ssid: String?)
    case contactsSet([Contact])
    case storeKitPurchase(product: String)
    case storeKitExpire(product: String)
    case storeKitRefund(product: String)

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
        }
    }

    /// Every event type this build simulates.
    public static let types = [
        "lock", "unlock", "device.reboot", "app.open", "app.close", "shield.press", "call.dial", "call.connect", "call.end",
        "wifi.join", "wifi.leave", "contacts.set", "storekit.purchase", "storekit.expire", "storekit.refund",
    ]

    /// Decodes an event from the `event` params; `fields` reads one field or nil.
    public static func decode(type: String, fields: EventFields) throws(DeviceError) -> DeviceEvent {
        switch type {
        case "lock": return .lock
        case "unlock": return .unlock
        case "device.reboot": return .reboot
        case "app.open": return .appOpen(app: try fields.requiredString("app"))
        case "app.close": return .appClose(app: try fields.requiredString("app"))
        case "shield.press":
            let app = try fields.requiredString("app")
            let name = try fields.requiredString("button")
            guard let button = ShieldButton(rawValue: name) else {
                throw .invalidArgument(field: "button", reason: "must be primary or secondary")
            }
            return .shieldPress(app: app, button: button)
        case "call.dial": return .callDial(handle: try fields.optionalString("handle"))
        case "call.connect": return .callConnect(handle: try fields.optionalString("handle"))
        case "call.end": return .callEnd(handle: try fields.optionalString("handle"))
        case "wifi.join": return .wifiJoin(ssid: try fields.requiredString("ssid"))
        case "wifi.leave": return .wifiLeave(ssid: try fields.optionalString("ssid"))
        case "contacts.set": return .contactsSet(try fields.contacts("contacts"))
        case "storekit.purchase": return .storeKitPurchase(product: try fields.requiredString("product"))
        case "storekit.expire": return .storeKitExpire(product: try fields.requiredString("product"))
        case "storekit.refund": return .storeKitRefund(product: try fields.requiredString("product"))
        default: throw .unknownEvent(type)
        }
    }
}

/// A person in the device's address book (`contacts.set`).
public struct Contact: Sendable, Hashable, Codable {
    public var id: String
    public var name: String
    public var phone: String?

    public init(id: String, name: String, phone: String? = nil) {
        self.id = id
        self.name = name
        self.phone = phone
    }
}

/// Read access to an event's fields, provided by the daemon over its JSON params.
public protocol EventFields {
    /// The string field `name`, nil when absent; throws when present with another type.
    func optionalString(_ name: String) throws(DeviceError) -> String?
    /// The field `name` as an array of contacts.
    func contacts(_ name: String) throws(DeviceError) -> [Contact]
}

extension EventFields {
    func requiredString(_ name: String) throws(DeviceError) -> String {
        guard let value = try optionalString(name) else {
            throw .invalidArgument(field: name, reason: "required")
        }
        guard !value.isEmpty else { throw .invalidArgument(field: name, reason: "must not be empty") }
        return value
    }
}
