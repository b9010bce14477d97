import ControlProtocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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

    func call(_ method: Method, _ params: JSONValue, in session: Session) throws -> JSONValue {
        try withDaemon(of: session) { try $0.longCall(method.rawValue, params: params) }
    }

    /// Runs `body` with a session on the daemon: `session` itself, or with `--standalone` one on
    /// a private daemon started for it. `handlesInterrupt`: `body` takes Ctrl-C over itself
    /// (``InterruptSignal``), so the private daemon is not stopped by it (SIGTERM still is).
    func withDaemon<T>(of session: Session, handlesInterrupt: Bool = false, _ body: (Session) throws -> T) throws -> T {
        guard standalone else { return try body(session) }
        let daemon = try PrivateDaemon(forwarding: handlesInterrupt ? [SIGTERM] : [SIGINT, SIGTERM])
        defer { daemon.stop() }
        var options = session.options
        options.socketPath = daemon.socketPath
        return try body(Session(options: options))
    }

    /// The words that choose the same daemon in a printed command line.
    var words: [String] { standalone ? ["--standalone"] : [] }
}
