import ExtensionSandbox
import Foundation

/// `URLSession.shared` for simulated code: requests reach the servers the host connected the
/// device to (docs/platform.md#network). Each request is a platform call: a scheduling point,
/// only from a running process; in a WorkManager work that was cancelled, it throws
/// `CancellationError` before it is sent and after its answer arrived (the server has then
/// acted on it: the answer is lost, as a cancelled coroutine's is). An extension killed while
/// its request was on the way gets no answer either.
public struct NetworkSession: Sendable {
    @_spi(Host) public let agent: NetworkAgent

    /// `data(for:)`: the response, whatever its status (check ``HTTPResponse/statusCode``).
    /// Throws `URLError` `.notConnectedToInternet` while the device is offline and
    /// `.cannotFindHost` for a host no server answers.
    public func data(for request: NetworkRequest) async throws -> HTTPResponse {
        try WorkRun.checkCancellation()
        try CallbackContext.platformCall(VisibleOperation("send", "network", "\(request.httpMethod) \(request.path)"))
        let response = try await agent.send(request)
        // The answer reaches only a process still alive: an extension killed while its request
        // was on the way (a jetsam in another task, a reboot) never gets it.
        try CallbackContext.current?.checkpoint()
        try WorkRun.checkCancellation()
        return response
    }

    /// `NWPathMonitor().currentPath.status == .satisfied`.
    public func isOnline() async throws -> Bool {
        try CallbackContext.platformCall(VisibleOperation("read", "network", "path"))
        return await agent.online
    }
}
