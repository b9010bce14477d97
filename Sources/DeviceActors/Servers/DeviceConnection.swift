import Foundation
@_spi(Host) import SimulatediOS

/// One device's line to the servers of its apps (``NetworkTransport``), which also keeps what the
/// network answered during a request, so that a replay of the device's journal gets the same
/// answers without asking the servers again: they have moved on (they hold what the first run
/// stored), so asking again would answer otherwise, and change them twice.
///
/// Live (the default): requests and ticks go to the servers; each answer of the request in
/// progress is kept, numbered by its place in the request (ticks only when they delivered
/// pushes). ``takeExchanges()`` hands them over for the journal and starts the next request.
/// Replaying (``replay(_:)``): answers come from the given exchanges only; a request the
/// exchanges do not hold fails as unreachable (the replay then leaves the recorded path, which
/// the daemon logs), a tick delivers nothing.
// unchecked: lock-protected: every var is touched only under `lock` (NSLock, which TSan follows; Mutex it cannot see)
public final class DeviceConnection: NetworkTransport, @unchecked Sendable {
    /// One answer the network gave during a request: the `n`th call of it.
    public struct Exchange: Codable, Sendable, Equatable {
        public let n: Int
        public var response: HTTPResponse?
        public var pushes: [PushMessage]?
    }

    /// The instances the device's apps talk to, in the order of its apps.
    public let servers: [ServerHost]
    private let caller: ServerCaller
    private let lock = NSLock()
    private var calls = 0
    private var kept: [Exchange] = []
    private var replaying: [Int: Exchange]?

    /// The shortest tick period of the device's servers (one tick reaches each).
    public let tickPeriodSeconds: Int?

    /// `caller` (its name, time zone and platform) on `servers`.
    public init(servers: [ServerHost], caller: ServerCaller) {
        self.servers = servers
        self.caller = caller
        tickPeriodSeconds = servers.compactMap(\.registration.tickPeriodSeconds).min()
    }

    public func latencyMilliseconds(for request: NetworkRequest) -> ClosedRange<Int>? {
        server(for: request)?.registration.latencyMilliseconds
    }

    private func server(for request: NetworkRequest) -> ServerHost? {
        let host = request.host
        return servers.first { $0.registration.answers(host: host) }
    }

    public func exchange(_ request: NetworkRequest, at now: Int64) -> HTTPResponse? {
        lock.withLock {
            calls += 1
            if let replaying { return replaying[calls]?.response }
            guard let server = server(for: request) else { return nil }
            let response = server.serve(request, from: caller, at: now)
            kept.append(Exchange(n: calls, response: response))
            return response
        }
    }

    public func tick(at now: Int64) -> [PushMessage] {
        lock.withLock {
            calls += 1
            if let replaying { return replaying[calls]?.pushes ?? [] }
            let pushes = servers.flatMap { $0.tick(device: caller.device, at: now) }
            if !pushes.isEmpty { kept.append(Exchange(n: calls, pushes: pushes)) }
            return pushes
        }
    }

    /// The answers kept since the last call (for the journal line of the request that got
    /// them), and a fresh count for the next request. Ends a replay.
    public func takeExchanges() -> [Exchange] {
        lock.withLock {
            defer {
                kept = []
                calls = 0
                replaying = nil
            }
            return kept
        }
    }

    /// Replays one journalled request: answers from `exchanges` only, until ``takeExchanges()``.
    public func replay(_ exchanges: [Exchange]) {
        lock.withLock {
            calls = 0
            kept = []
            replaying = Dictionary(exchanges.map { ($0.n, $0) }) { _, last in last }
        }
    }
}
