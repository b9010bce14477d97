import Foundation
@_spi(Host) import SimulatediOS

/// One device's line to its backend (``NetworkTransport``), which also keeps what the network
/// answered during a request, so that a replay of the device's journal gets the same answers
/// without asking the backend again: the backend has moved on (it holds what the first run
/// stored), so asking again would answer otherwise, and change it twice.
///
/// Live (the default): requests and ticks go to the backend; each answer of the request in
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

    public let backend: BackendHost
    private let routes: PhoneBackendRoutes
    private let lock = NSLock()
    private var calls = 0
    private var kept: [Exchange] = []
    private var replaying: [Int: Exchange]?

    public let tickPeriodSeconds: Int? = 300

    /// `device` (its time zone and platform sign-up defaults) on `backend`.
    public init(backend: BackendHost, device: String, timezone: String, platform: DevicePlatform) {
        self.backend = backend
        routes = PhoneBackendRoutes(device: device, timezone: timezone, platform: platform.rawValue)
    }

    public func exchange(_ request: NetworkRequest, at now: Int64) -> HTTPResponse? {
        lock.withLock {
            calls += 1
            if let replaying { return replaying[calls]?.response }
            let response = backend.serve(request, with: routes, at: now)
            kept.append(Exchange(n: calls, response: response))
            return response
        }
    }

    public func tick(at now: Int64) -> [PushMessage] {
        lock.withLock {
            calls += 1
            if let replaying { return replaying[calls]?.pushes ?? [] }
            let pushes = backend.tick(device: routes.device, at: now)
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
