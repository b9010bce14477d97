import Foundation

/// A server an app brings with it (docs/sdk.md, "Your app's own server"): a deterministic value
/// that answers the app's `URLSession` requests on the device's network. The host keeps each
/// instance, serves requests in order, runs the server's jobs as its clock passes, journals every
/// change and snapshots it, so that an instance comes back after `kill -9` exactly as it was: all
/// the server's state is in the value (``Codable``), and the same calls on the same value give
/// the same answers (no wall clock, no global randomness: draw from state the value holds).
///
/// The server's clock (``clock``) is the latest time any of its devices has reached: a request
/// is served at the time of the device that sent it, or at the server's clock when that is later
/// (a device left behind is a phone whose clock is wrong); jobs due run first
/// (``advance(to:)``).
public protocol AppServer: Codable, Sendable, Equatable {
    /// An instance's row in `server.list`: its members stand beside `server` and `instance`.
    associatedtype Summary: Encodable = NoSummary

    /// A new, empty instance named `instance`, its clock at `now` (milliseconds since 1970).
    init(instance: String, now: Int64)
    /// The server's clock, milliseconds since 1970.
    var clock: Int64 { get }
    /// Moves the clock to `now` (never back: the host calls it only forward) and runs the jobs
    /// due by then: what they sent, and whether they changed anything.
    mutating func advance(to now: Int64) -> ServerJobs
    /// Answers `request`, sent from `caller`, at ``clock``.
    mutating func serve(_ request: NetworkRequest, from caller: ServerCaller) -> ServedRequest
    /// What an observer may ask of an instance over the socket (`server.call`, `clarityctl server
    /// call`): reads, and writes a raw client makes (journalled like requests).
    static var methods: [ServerMethod<Self>] { get }
    /// The times the server can hold: a restart refuses a snapshot or journal line outside them.
    static var times: ClosedRange<Int64> { get }
    /// Whether every time the value holds is within ``times`` (a snapshot read from disk).
    var timesAreWithinRange: Bool { get }
    /// The instance's row in `server.list` (its time, users, groups…).
    var summary: Summary { get }
}

extension AppServer {
    public mutating func advance(to now: Int64) -> ServerJobs { ServerJobs() }
    public static var methods: [ServerMethod<Self>] { [] }
    public static var times: ClosedRange<Int64> { -(1 << 61)...(1 << 61) }
    public var timesAreWithinRange: Bool { Self.times.contains(clock) }
}

extension AppServer where Summary == NoSummary {
    public var summary: NoSummary { NoSummary() }
}

/// The row of a server that says nothing more of its instances than their names.
public struct NoSummary: Encodable, Sendable {}

/// The device a request came from, as the simulated network knows it (a TLS session with the
/// user's token would): its name, its time zone and its operating system.
public struct ServerCaller: Codable, Sendable, Equatable {
    public let device: String
    public let timezone: String
    public let platform: String

    public init(device: String, timezone: String, platform: String) {
        self.device = device
        self.timezone = timezone
        self.platform = platform
    }
}

/// What serving a request gave: the response, and whether the server refused it before changing
/// anything (no such route, a body that does not decode, no user signed in). A refused request
/// that moved no job is not journalled: the journal would otherwise grow by every refused request.
public struct ServedRequest: Sendable {
    public let response: HTTPResponse
    public let refusedBeforeAnyChange: Bool

    public init(response: HTTPResponse, refusedBeforeAnyChange: Bool = false) {
        self.response = response
        self.refusedBeforeAnyChange = refusedBeforeAnyChange
    }
}

/// What the jobs that ran as a server's clock moved did: the pushes they sent (each waits until
/// its device's clock reaches its time) and whether they changed the server at all.
public struct ServerJobs: Sendable {
    public var pushes: [ServerPush]
    public var changedSomething: Bool

    public init(pushes: [ServerPush] = [], changedSomething: Bool = false) {
        self.pushes = pushes
        self.changedSomething = changedSomething || !pushes.isEmpty
    }
}

/// A push a server sent to one device (APNs, FCM).
public struct ServerPush: Sendable, Equatable {
    public let device: String
    public let message: PushMessage

    public init(device: String, message: PushMessage) {
        self.device = device
        self.message = message
    }
}
