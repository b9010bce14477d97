/// Where a device's network traffic goes: the host connects each device to the servers it may
/// reach (the daemon to its shared backends, a scenario to a private one, a test to its own).
/// Called from inside the device's world, synchronously: a call is an exchange that has
/// happened when it returns, as a request whose answer arrived.
public protocol NetworkTransport: Sendable {
    /// Serves `request` at `now` (milliseconds since 1970, the device's clock): nil when no
    /// server answers for its host (the app then gets `URLError.cannotFindHost`).
    func exchange(_ request: NetworkRequest, at now: Int64) -> HTTPResponse?
    /// Time has reached `now` on this device: servers run what their clocks passed, and the
    /// pushes sent to this device by then are handed over (each once).
    func tick(at now: Int64) -> [PushMessage]
    /// How often the device ticks, in seconds, at multiples of it since 1970 (nil: never).
    var tickPeriodSeconds: Int? { get }
}
