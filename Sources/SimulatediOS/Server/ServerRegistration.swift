import Foundation
import JSONValues

/// A server as an app registers it (docs/sdk.md, "Your app's own server"): its type, the hosts it
/// answers, how long its requests take, how often its devices' clocks tick it, and where the daemon
/// keeps its instances. Given to ``AppRegistration`` beside the app; the host makes one instance
/// per name the app's devices ask for (several devices share one, as one server's users do), a
/// private one per scenario schedule.
public struct ServerRegistration: Sendable {
    /// The server's name (`server.call`'s `server`; its instances' files live under
    /// ``stateDirectory``): letters, digits, `.`, `_`, `-`.
    public let name: String
    /// The URL hosts it answers (`api.example.com`); empty: every host the app asks.
    public let hosts: Set<String>
    /// A request's round trip in virtual milliseconds, drawn from the device's seeded randomness
    /// for each request (default 50–300 ms: a phone on a good network).
    public let latencyMilliseconds: ClosedRange<Int>
    /// How often a device's clock ticks the server, in seconds at multiples of it since 1970, so
    /// that its jobs run and its pushes arrive though the app sends nothing (nil: never).
    public let tickPeriodSeconds: Int?
    /// The socket's older name for `server.*` on this server (`backend`: `backend.users` is
    /// `server.call` of `users`; the instance param spelt `backend`), nil for none.
    public let methodPrefix: String?
    /// Where the daemon keeps its instances, relative to its state directory (default
    /// `servers/<name>`).
    public let stateDirectory: String
    @_spi(Host) public let kind: any ServerKind

    public init<Server: AppServer>(
        _ type: Server.Type, name: String, hosts: Set<String> = [], latencyMilliseconds: ClosedRange<Int> = 50...300,
        tickPeriodSeconds: Int? = nil, methodPrefix: String? = nil, stateDirectory: String? = nil
    ) {
        precondition(Self.isName(name), "a server's name is 1 to 64 letters, digits, '.', '_' or '-'")
        precondition(latencyMilliseconds.lowerBound >= 0, "a latency is not negative")
        self.name = name
        self.hosts = hosts
        self.latencyMilliseconds = latencyMilliseconds
        self.tickPeriodSeconds = tickPeriodSeconds
        self.methodPrefix = methodPrefix
        self.stateDirectory = stateDirectory ?? "servers/\(name)"
        kind = TypedServerKind<Server>()
    }

    /// Whether `host` is one this server answers.
    public func answers(host: String?) -> Bool {
        hosts.isEmpty || host.map(hosts.contains) == true
    }

    /// Whether `method` is one of the server's methods that change an instance (journalled, and
    /// saved before its answer).
    @_spi(Host) public func changesState(_ method: String) -> Bool {
        kind.methods.contains { $0.name == method && $0.changesState }
    }

    /// Whether `name` can name a server or an instance (and its files).
    public static func isName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count) && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
    }
}

/// A server type as the host drives it without knowing it: makes instances and reads them back.
@_spi(Host) public protocol ServerKind: Sendable {
    func make(instance: String, now: Int64) -> any ServerState
    /// A snapshot file's bytes, `{"name","state","outbox","journal"}` (earlier builds spelt
    /// `state` `backend`); throws what makes them unreadable.
    func decodeSnapshot(_ data: Data) throws -> ServerSnapshotFile
    /// The names of the methods an observer may call, and whether each changes the instance.
    var methods: [(name: String, changesState: Bool)] { get }
    var times: ClosedRange<Int64> { get }
}

/// One instance's state, boxed: the host holds it under its lock and is the only caller.
@_spi(Host) public protocol ServerState: AnyObject, Sendable {
    var clock: Int64 { get }
    func advance(to now: Int64) -> ServerJobs
    func serve(_ request: NetworkRequest, from caller: ServerCaller) -> ServedRequest
    func call(_ method: String, params: JSONValue, context: ServerCallContext) throws(ServerCallError) -> JSONValue
    /// The snapshot file of the instance `name` in this state.
    func snapshotBytes(name: String, outbox: [String: [PushMessage]], journal: Int?) throws -> [UInt8]
    /// A box of its own holding the same state (a snapshot, a second restore from one base).
    func copy() -> any ServerState
    /// Whether `other` is the same server in the same state.
    func isEqual(to other: any ServerState) -> Bool
    /// Whether it is the fresh instance `instance` made at `now` (a journal's first line).
    func isFresh(instance: String, now: Int64) -> Bool
    var timesAreWithinRange: Bool { get }
    /// The state as `type`, nil when it is another server's.
    func value<Server: AppServer>(as type: Server.Type) -> Server?
    /// The instance's row in `server.list`.
    func summary() throws -> JSONValue
}

private struct TypedServerKind<Server: AppServer>: ServerKind {
    func make(instance: String, now: Int64) -> any ServerState { ServerBox(Server(instance: instance, now: now)) }

    func decodeSnapshot(_ data: Data) throws -> ServerSnapshotFile {
        let file = try JSONDecoder().decode(SnapshotFile<Server>.self, from: data)
        guard let server = file.state ?? file.backend else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no state"))
        }
        return ServerSnapshotFile(name: file.name, state: ServerBox(server), outbox: file.outbox, journal: file.journal)
    }

    var methods: [(name: String, changesState: Bool)] { Server.methods.map { ($0.name, $0.changesState) } }
    var times: ClosedRange<Int64> { Server.times }
}

// unchecked: confined to its ServerHost: every call is made under the host's lock
private final class ServerBox<Server: AppServer>: ServerState, @unchecked Sendable {
    var server: Server

    init(_ server: Server) { self.server = server }

    var clock: Int64 { server.clock }
    var timesAreWithinRange: Bool { server.timesAreWithinRange }
    func summary() throws -> JSONValue { try JSONWire.value(server.summary) }

    func advance(to now: Int64) -> ServerJobs { server.advance(to: now) }

    func serve(_ request: NetworkRequest, from caller: ServerCaller) -> ServedRequest { server.serve(request, from: caller) }

    func call(_ method: String, params: JSONValue, context: ServerCallContext) throws(ServerCallError) -> JSONValue {
        guard let found = Server.methods.first(where: { $0.name == method }) else {
            let known = Server.methods.map(\.name).sorted().joined(separator: ", ")
            throw .invalidParams(field: "method", reason: "no method \(method) (known: \(known))")
        }
        return try found.run(&server, params, context)
    }

    func snapshotBytes(name: String, outbox: [String: [PushMessage]], journal: Int?) throws -> [UInt8] {
        try JSONWire.bytes(SnapshotFile(name: name, state: server, backend: nil, outbox: outbox, journal: journal))
    }

    func copy() -> any ServerState { ServerBox(server) }

    func isEqual(to other: any ServerState) -> Bool { other.value(as: Server.self) == server }

    func value<Wanted: AppServer>(as type: Wanted.Type) -> Wanted? { server as? Wanted }

    func isFresh(instance: String, now: Int64) -> Bool { server == Server(instance: instance, now: now) }
}

/// A snapshot file as read: the instance's name, its state, the pushes not yet delivered and the
/// generation of the journal that continues it.
@_spi(Host) public struct ServerSnapshotFile: Sendable {
    public let name: String
    public let state: any ServerState
    public let outbox: [String: [PushMessage]]
    public let journal: Int?
}

/// A snapshot file's members, typed by its server (the state is decoded by Foundation's
/// decoder: JSON values as a tree lose a `UInt64` generator state).
private struct SnapshotFile<Server: AppServer>: Codable {
    var name: String
    var state: Server?
    var backend: Server?
    var outbox: [String: [PushMessage]]
    var journal: Int?
}
