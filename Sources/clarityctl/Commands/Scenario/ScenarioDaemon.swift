import ControlProtocol

/// Where a scenario command sends its one call: the daemon of `--socket`, or with `--standalone`
/// a clarityd of its own (``PrivateDaemon``), started for the call and stopped after it. Either
/// way the call waits as long as it takes unless `--timeout` was given (``Session/longCall(_:params:)``):
/// an exploration sends nothing until it is done.
struct ScenarioDaemon {
    static let helpLine = """
          --standalone          start a clarityd of its own for the call (none need run), stop it after;
                                $CLARITYD_EXECUTABLE names another daemon to start (one with your apps)
        """

    let standalone: Bool

    init(arguments: inout Arguments) {
        standalone = arguments.flag("--standalone")
    }

    func call(
        _ method: Method, _ params: JSONValue, in session: Session,
        notified: ((_ method: String, _ params: JSONValue) -> Void)? = nil
    ) throws -> JSONValue {
        guard standalone else { return try session.longCall(method.rawValue, params: params, notified: notified) }
        let daemon = try PrivateDaemon()
        defer { daemon.stop() }
        var options = session.options
        options.socketPath = daemon.socketPath
        return try Session(options: options).longCall(method.rawValue, params: params, notified: notified)
    }

    /// The words that choose the same daemon in a printed command line.
    var words: [String] { standalone ? ["--standalone"] : [] }
}
