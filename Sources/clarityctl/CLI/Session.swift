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
        let client = try self.client ?? ClarityClient(socketPath: options.socketPath, idleTimeout: options.timeout)
        self.client = client
        return try client.call(method, params: params)
    }
}
