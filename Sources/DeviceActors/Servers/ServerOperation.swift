import JSONValues
@_spi(Host) import SimulatediOS

/// A change to a server instance, as its journal keeps it (`<server's state directory>/<instance>.<G>.journal`,
/// one per line): applied again in order to the snapshot the journal continues, it gives the
/// instance back exactly.
///
/// The lines are those earlier builds wrote for the first server hosted here: a request's caller is spelt
/// as its members (`device`, `timezone`, `platform`) beside the request, and a call of a method
/// journalled as `{"<method>": params}` by them reads as ``call(method:params:)``.
public enum ServerOperation: Codable, Sendable, Equatable {
    /// The instance was made, its clock at `now`: the first line of its first journal (generation
    /// 0), from which the instance can be rebuilt without any snapshot.
    case created(now: Int64)
    /// The clock moved to `now` and nothing else changed: its devices' ticks that ran no job to
    /// any effect, written once, before the next operation or at the next save.
    case clock(now: Int64)
    /// A device's request, and the status it was answered with: applied again, it must get the
    /// same (journals of earlier builds have none).
    case serve(caller: ServerCaller, request: NetworkRequest, now: Int64, status: Int?)
    /// A device's tick that ran a job to some effect or took pushes.
    case tick(device: String, now: Int64)
    /// An observer's call of a method that changes the instance (`server.call`), at its clock.
    case call(method: String, params: JSONValue)

    /// The time the operation moves the clock to (a call runs at the clock).
    public var now: Int64? {
        switch self {
        case .created(let now), .clock(let now), .serve(_, _, let now, _), .tick(_, let now): now
        case .call: nil
        }
    }

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
        static let created = Key(stringValue: "created")
        static let clock = Key(stringValue: "clock")
        static let serve = Key(stringValue: "serve")
        static let tick = Key(stringValue: "tick")
        static let call = Key(stringValue: "call")
    }

    private struct Now: Codable {
        let now: Int64
    }

    private struct Served: Codable {
        let device: String
        let timezone: String
        let platform: String
        let request: NetworkRequest
        let now: Int64
        let status: Int?
    }

    private struct Ticked: Codable {
        let device: String
        let now: Int64
    }

    private struct Called: Codable {
        let method: String
        let params: JSONValue
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "an operation is an object of one member"))
        }
        switch key.stringValue {
        case "created": self = .created(now: try container.decode(Now.self, forKey: key).now)
        case "clock": self = .clock(now: try container.decode(Now.self, forKey: key).now)
        case "serve":
            let served = try container.decode(Served.self, forKey: key)
            self = .serve(
                caller: ServerCaller(device: served.device, timezone: served.timezone, platform: served.platform),
                request: served.request, now: served.now, status: served.status)
        case "tick":
            let ticked = try container.decode(Ticked.self, forKey: key)
            self = .tick(device: ticked.device, now: ticked.now)
        case "call":
            let called = try container.decode(Called.self, forKey: key)
            self = .call(method: called.method, params: called.params)
        default:
            self = .call(method: key.stringValue, params: try container.decode(JSONValue.self, forKey: key))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .created(let now): try container.encode(Now(now: now), forKey: .created)
        case .clock(let now): try container.encode(Now(now: now), forKey: .clock)
        case .serve(let caller, let request, let now, let status):
            try container.encode(
                Served(device: caller.device, timezone: caller.timezone, platform: caller.platform, request: request, now: now, status: status),
                forKey: .serve)
        case .tick(let device, let now): try container.encode(Ticked(device: device, now: now), forKey: .tick)
        case .call(let method, let params): try container.encode(Called(method: method, params: params), forKey: .call)
        }
    }
}
