import ControlProtocol

/// What a running command works with: the global options, the output, and a connection to the
/// daemon that is opened on first use.
final class Session {
    let options: GlobalOptions
    let output: Output
    private var client: ClarityClient?

    init(options: GlobalOptions) {
        self.options = options
        self.output = Output(json: options.json)
    }

    /// Calls `method` and returns its result; throws ``RPCError`` or ``ClientError``.
    func call(_ method: String, params: JSONValue?) throws -> JSONValue {
        try connection().call(method, params: params)
    }

    /// The next notification on the session's connection (after `subscribe`), however long it
    /// takes to come.
    func nextNotification() throws -> ClarityClient.Notification {
        try connection().nextNotification()
    }

    private func connection() throws -> ClarityClient {
        let client = try self.client ?? ClarityClient(socketPath: options.socketPath, idleTimeout: options.timeout)
        self.client = client
        return client
    }

    /// Calls `method`, which may work long without sending a byte (an exploration), on a
    /// connection of its own that waits for the answer as long as it takes — unless `--timeout`
    /// was given, which it keeps to (``longCallTimeout``).
    func longCall(_ method: String, params: JSONValue?) throws -> JSONValue {
        try ClarityClient(socketPath: options.socketPath, idleTimeout: longCallTimeout).call(method, params: params)
    }

    /// The idle timeout of a call that may work long without sending a byte: none, unless
    /// `--timeout` was given.
    var longCallTimeout: Double? { options.timeoutWasGiven ? options.timeout : nil }
}
