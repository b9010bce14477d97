import ControlProtocol

/// `clarityctl shutdown`: the daemon flushes its state and exits 0.
struct DaemonShutdown: MethodCommand {
    static let help = CommandHelp(
        words: ["shutdown"], synopsis: "", abstract: "flush state and stop the daemon (daemon.shutdown)",
        aliases: [["daemon", "shutdown"]])

    init(arguments: inout Arguments, options: GlobalOptions) throws {}

    var method: Method { .daemonShutdown }
    var params: JSONValue? { nil }
}
