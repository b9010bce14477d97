import ExtensionSandbox
import Foundation

/// The device's network: whether it is online (`network.offline` / `network.online`,
/// docs/platform.md, "Network"), the transport to its servers, and the system's push delivery.
///
/// Every exchange is traced `network.request` (method, path, status or the error the app got),
/// when the app gets the answer: the server acts on a request when it is sent, and the answer
/// arrives after the server's latency (``NetworkTransport/latencyMilliseconds(for:)``, drawn from
/// the world's seeded randomness), during which the device's other processes go on;
/// a push shown is traced `notification.push`. While offline a request fails at once with
/// `URLError.notConnectedToInternet`, as a lost connection does, and pushes wait for the next
/// tick online (APNs keeps them). The ticks (``NetworkTransport/tickPeriodSeconds``) are the
/// system's, not the app's: they outlive the app's process.
@_spi(Host) public actor NetworkAgent: WorldActor {
    @_spi(Host) public nonisolated let executor: WorldActorExecutor
    private let clock: VirtualClock
    private let world: World
    private let calendar: DeviceCalendar
    private let trace: DeviceTrace
    private let notifications: NotificationAgent
    private let system: SystemAgent
    /// Where requests go (nil: no server answers).
    @_spi(Host) public nonisolated let transport: (any NetworkTransport)?
    /// Internet reachability (`device.state.online`), kept in the snapshot.
    @_spi(Host) public private(set) var online = true

    @_spi(Host) public init(
        executor: WorldActorExecutor, world: World, calendar: DeviceCalendar, trace: DeviceTrace,
        notifications: NotificationAgent, system: SystemAgent, transport: (any NetworkTransport)?
    ) {
        self.executor = executor
        self.world = world
        clock = world.clock
        self.calendar = calendar
        self.trace = trace
        self.notifications = notifications
        self.system = system
        self.transport = transport
    }

    /// The device's clock as a server sees it: milliseconds since 1970.
    @_spi(Host) public nonisolated func milliseconds(_ instant: VirtualInstant) -> Int64 {
        Int64((calendar.date(instant).timeIntervalSince1970 * 1000).rounded())
    }

    @_spi(Host) public func restore(online: Bool) {
        self.online = online
    }

    /// `network.offline` / `network.online`: traced `network`; false when nothing changed.
    @_spi(Host) public func setOnline(_ online: Bool) -> Bool {
        guard online != self.online else { return false }
        self.online = online
        trace.record(.network(online: online), by: "network")
        return true
    }

    /// One request from the app: the server's answer, or the error `URLSession` would throw.
    ///
    /// Three fault sites (docs/platform.md, "Faults") an exploration may fire, each traced
    /// `fault` before the request's own line: ``Fault/requestLost`` (the server never hears it),
    /// ``Fault/serverError`` (it answers 500 without acting) and ``Fault/requestTimedOut`` (it
    /// acted, but the answer is lost: the app waits out URLSession's timeout).
    @_spi(Host) public func send(_ request: NetworkRequest) async throws -> HTTPResponse {
        let method = request.httpMethod
        let path = request.path
        guard online else { throw failure(method, path, .notConnectedToInternet) }
        guard let transport else { throw failure(method, path, .cannotFindHost) }
        let site = "\(method) \(path)"
        if fires(.requestLost, at: site) { throw failure(method, path, .networkConnectionLost) }
        let response: HTTPResponse
        if fires(.serverError, at: site) {
            response = HTTPResponse(statusCode: 500, body: Data(#"{"error":"serverError"}"#.utf8))
        } else {
            guard let answer = transport.exchange(request, at: milliseconds(clock.now)) else {
                throw failure(method, path, .cannotFindHost)
            }
            response = answer
        }
        if fires(.requestTimedOut, at: site) {
            // The timeout runs from the moment the request was sent.
            await world.sleep(seconds: Fault.requestTimeoutSeconds)
            throw failure(method, path, .timedOut)
        }
        if let range = transport.latencyMilliseconds(for: request), range.upperBound > 0 {
            let latency = Int.random(in: range, using: &world.random)
            await world.sleep(seconds: Double(latency) / 1000)
        }
        trace.record(.networkRequest(method: method, path: path, status: response.statusCode, error: nil))
        return response
    }

    /// Whether an exploration fires `fault` at this request (traced `fault` if so).
    private func fires(_ fault: Fault, at site: String) -> Bool {
        guard Scheduler.current?.faults.fires(fault) == true else { return false }
        trace.record(.fault(fault: fault.rawValue, at: site), by: "network")
        return true
    }

    /// The error the app gets, traced on the request's line.
    private func failure(_ method: String, _ path: String, _ code: URLError.Code) -> URLError {
        trace.record(.networkRequest(method: method, path: path, status: nil, error: Self.name(of: code)))
        return URLError(code)
    }

    /// How the trace names a `URLError` code (as Apple spells the case).
    private static func name(of code: URLError.Code) -> String {
        switch code {
        case .notConnectedToInternet: "notConnectedToInternet"
        case .cannotFindHost: "cannotFindHost"
        case .networkConnectionLost: "networkConnectionLost"
        case .timedOut: "timedOut"
        default: "\(code.rawValue)"
        }
    }

    /// Arms the first tick (at creation and restore): at the next multiple of the period.
    @_spi(Host) public func startTicking() {
        guard let period = transport?.tickPeriodSeconds, period > 0 else { return }
        armTick(period: Int64(period) * 1000)
    }

    private func armTick(period: Int64) {
        let now = milliseconds(clock.now)
        let next = (now / period + 1) * period
        let due = clock.now + VirtualDuration(milliseconds: next - now)
        clock.schedule(at: due, label: "network.tick") { [weak self] in await self?.tick(period: period) }
    }

    private func tick(period: Int64) async {
        if online, let transport {
            for push in transport.tick(at: milliseconds(clock.now)) {
                await notifications.deliverPush(push, silenced: await system.focusModeOn)
            }
        }
        armTick(period: period)
    }
}
