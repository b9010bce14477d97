/// Where a device's network traffic goes: the host connects each device to the servers its apps
/// registered (the daemon to its shared instances, a scenario to private ones, a test to its own).
/// Called from inside the device's world, synchronously: the server has acted on a request when
/// ``exchange(_:at:)`` returns; the app gets the answer after the request's latency
/// (``latencyMilliseconds(for:)``), as its own scheduling point.
public protocol NetworkTransport: Sendable {
    /// Serves `request` at `now` (milliseconds since 1970, the device's clock): nil when no
    /// server answers for its host (the app then gets `URLError.cannotFindHost`).
    func exchange(_ request: NetworkRequest, at now: Int64) -> HTTPResponse?
    /// Time has reached `now` on this device: servers run what their clocks passed, and the
    /// pushes sent to this device by then are handed over (each once).
    func tick(at now: Int64) -> [PushMessage]
    /// How often the device ticks, in seconds, at multiples of it since 1970 (nil: never).
    var tickPeriodSeconds: Int? { get }
    /// The round trip of `request` in virtual milliseconds, the range a draw picks from (nil or
    /// `0...0`: the answer is there at once).
    func latencyMilliseconds(for request: NetworkRequest) -> ClosedRange<Int>?
}

extension NetworkTransport {
    public func latencyMilliseconds(for request: NetworkRequest) -> ClosedRange<Int>? { nil }
}
