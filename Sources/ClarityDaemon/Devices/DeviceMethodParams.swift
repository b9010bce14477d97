import ControlProtocol
import DeviceActors
@_spi(Host) import SimulatediOS

/// The `params` of the device methods (docs/protocol.md, Methods), one type each, decoded
/// strictly (``JSONValueDecoder``): a member a method doesn't take is refused by name.

/// Params of a method addressed to one device: `device`, default `default`.
protocol DeviceParams: Decodable, Sendable {
    var device: String? { get }
}

/// `device.state`, `clock.now`, `shields.get`, `sandbox.list`, `activity.list`, `record.start`.
struct DeviceOnlyParams: DeviceParams {
    var device: String?
}

/// `event`: `type` and that type's fields (``DeviceEvent``).
struct EventParams: DeviceParams {
    var device: String?
    var event: DeviceEvent

    private enum Key: CodingKey { case device }

    init(from decoder: any Decoder) throws {
        device = try decoder.container(keyedBy: Key.self).decodeIfPresent(String.self, forKey: .device)
        event = try DeviceEvent(from: decoder)
    }
}

/// `clock.advance`.
struct AdvanceParams: DeviceParams {
    var device: String?
    var seconds: Double
}

/// `intent`: `name`, and `args` decoded by the intent itself (``JSONIntentArguments``).
struct IntentParams: DeviceParams {
    var device: String?
    var name: String
    var args: JSONValue?
    /// Which installed app's main app: required on a device with several apps.
    var app: String?
}

/// `store.get`.
struct StoreKeyParams: DeviceParams {
    var device: String?
    var suite: String?
    var key: String
}

/// `store.remove`. The contract lists `value` for `store.set` and `store.remove` alike, so a
/// `value` here is accepted, and ignored.
struct StoreRemoveParams: DeviceParams {
    var device: String?
    var suite: String?
    var key: String
    var value: JSONValue?
}

/// `store.set`: `value` is required (`store.remove` deletes a key).
struct StoreSetParams: DeviceParams {
    var device: String?
    var suite: String?
    var key: String
    var value: StoredValue

    private enum Key: CodingKey { case device, suite, key, value }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Key.self)
        device = try fields.decodeIfPresent(String.self, forKey: .device)
        suite = try fields.decodeIfPresent(String.self, forKey: .suite)
        key = try fields.decode(String.self, forKey: .key)
        guard let value = try fields.decodeIfPresent(StoredValue.self, forKey: .value) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [Key.value], debugDescription: "required (use store.remove to delete a key)"))
        }
        guard value.depth <= Self.maxDepth else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [Key.value], debugDescription: "nested deeper than \(Self.maxDepth) levels of arrays and objects"))
        }
        self.value = value
    }

    /// How deep a stored value's arrays and dictionaries may nest (docs/protocol.md, StoredValue).
    static let maxDepth = 32
}

/// `store.dump`.
struct StoreSuiteParams: DeviceParams {
    var device: String?
    var suite: String?
}

/// `shield.config`.
struct ShieldConfigParams: DeviceParams {
    var device: String?
    var app: String

    /// `app`, a website's (`web:REDDIT.com`) with its domain as `web.open` keeps it.
    func foregroundName() throws(DeviceError) -> String {
        do {
            return try WebDomain.normalizedForegroundName(app)
        } catch {
            throw .invalidArgument(field: "app", reason: "web:<domain>, whose domain \(error.reason)")
        }
    }
}

/// `device.screen`: the screen as a value (`json`, the default), or drawn as well (`svg`).
struct ScreenParams: DeviceParams {
    var device: String?
    var format: Format?

    enum Format: String, NamedChoice {
        case json
        case svg
    }
}

/// `notifications.list`.
struct NotificationsParams: DeviceParams {
    var device: String?
    var since: Double?
}

/// `activity.start`.
struct ActivityStartParams: DeviceParams {
    var device: String?
    var name: String
    var schedule: DeviceActivitySchedule
    var events: [String: DeviceActivityEvent]?

    /// Refuses an event's website that is no domain (`events.<name>.webDomains`), as `web.open`
    /// refuses it: one could never be counted. (Decoding keeps what files hold; the request is
    /// judged here.)
    func checkWebDomains() throws(DeviceError) {
        for (name, event) in (events ?? [:]).sorted(by: { $0.key < $1.key }) {
            for domain in event.webDomains.sorted() {
                do {
                    _ = try WebDomain.normalized(domain)
                } catch {
                    throw .invalidArgument(field: "events.\(name).webDomains", reason: "\(domain.debugDescription): \(error.reason)")
                }
            }
        }
    }
}

/// `activity.stop`: `names`, or one `name`.
struct ActivityStopParams: DeviceParams {
    var device: String?
    var names: [String]?
    var name: String?

    var activities: [String]? { names ?? name.map { [$0] } }
}

/// `trace.get`: `since` (a sequence number, exclusive, ≥ 0); `limit` (the oldest) or `last`
/// (the newest), 0 to ``maxEvents``; `kinds` to select (`store.write`, or `monitor.` for the
/// kinds under it). At most ``maxEvents`` events an answer: page with `since`.
struct TraceParams: DeviceParams {
    var device: String?
    var since: Int?
    var limit: Int?
    var last: Int?
    var kinds: [String]?

    static let maxEvents = 10_000
}

/// `trace.export`: `format` (`perfetto`, the only one and the default), then the window as
/// `trace.get`'s: `since`, and `limit` (the oldest) or `last` (the newest), up to the whole trace
/// a device keeps (``maxEvents``).
struct TraceExportParams: DeviceParams {
    var device: String?
    var format: String?
    var since: Int?
    var limit: Int?
    var last: Int?

    static let formats = ["perfetto"]
    static let maxEvents = 100_000
}

/// `device.config`: with `config`, overrides to apply first.
struct ConfigParams: DeviceParams {
    var device: String?
    var config: DeviceConfig.Overrides?
}

/// `record.stop`: `name`, the scenario's (not empty; default `recorded on <device>`), and
/// `path`, the file clarityd writes it to instead of answering it (absolute: the daemon's
/// working directory is not its caller's).
struct RecordStopParams: DeviceParams {
    var device: String?
    var name: String?
    var path: String?

    private enum Key: CodingKey { case device, name, path }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Key.self)
        device = try fields.decodeIfPresent(String.self, forKey: .device)
        name = try fields.decodeIfPresent(String.self, forKey: .name)
        if name?.isEmpty == true {
            throw DecodingError.dataCorruptedError(forKey: .name, in: fields, debugDescription: "must not be empty")
        }
        path = try fields.decodeIfPresent(String.self, forKey: .path)
        if let path, !path.hasPrefix("/") || path.hasSuffix("/") || path.contains("\u{0}") {
            throw DecodingError.dataCorruptedError(
                forKey: .path, in: fields,
                debugDescription: "must be an absolute path to a file (clarityd's working directory is not the caller's)")
        }
    }
}

/// `device.create`.
struct CreateParams: Decodable, Sendable {
    var device: String?
    var app: String?
    /// Several apps installed on the device, in order (instead of `app`); the first is the primary.
    var apps: [String]?
    var clock: String?
    var start: String?
    var timezone: String?
    var seed: UInt64?
    var config: DeviceConfig.Overrides?
    /// `ios` (default) or `android` (an app's Android client, docs/platform.md, "Android").
    var platform: String?
}

/// `device.remove`: `device` is required.
struct RemoveParams: Decodable, Sendable {
    var device: String
}

/// `device.list`: no params.
struct NoParams: Decodable, Sendable {
    private enum Key: CodingKey {}

    init() {}

    init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: Key.self)
    }
}

/// Decodes a method's `params` (absent or null is `{}`); every failure is -32602 naming the
/// field, or the device's own refusal (an unknown event type is -32002). A `config` takes the
/// top-level settings `settingNames` allows (none unless given).
func decodeParams<P: Decodable>(
    _ type: P.Type, _ params: JSONValue?, settingNames: DeviceConfig.Overrides.SettingNames = .declared([])
) throws(RPCError) -> P {
    let value: JSONValue
    switch params {
    case nil, .null?:
        // Nothing to decode for a method without params (`daemon.ping`): going through the
        // decoder anyway took a fifth of the daemon's time under pipelined pings, and building
        // the empty object and casting to `P` 2 % more (docs/performance.md).
        if P.self == NoParams.self { return unsafeBitCast(NoParams(), to: P.self) }
        value = .object([:])
    case .object(let members)?:
        if P.self == NoParams.self, members.isEmpty { return unsafeBitCast(NoParams(), to: P.self) }
        value = params!
    default: throw RPCError.invalidParams(field: "params", reason: "must be an object")
    }
    do {
        return try JSONValueDecoder(userInfo: [DeviceConfig.Overrides.settingNamesKey: settingNames]).decode(type, from: value)
    } catch let error as FieldError {
        throw RPCError.invalidParams(field: error.field, reason: error.reason)
    } catch let error as DeviceError {
        throw RPCError(error)
    } catch {
        throw RPCError.invalidParams(field: "params", reason: "\(error)")
    }
}
