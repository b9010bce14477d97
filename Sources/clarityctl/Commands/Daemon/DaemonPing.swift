import ControlProtocol

/// `clarityctl ping`: is the daemon there, and which version is it.
struct DaemonPing: MethodCommand {
    static let help = CommandHelp(words: ["ping"], synopsis: "", abstract: "check that clarityd answers (daemon.ping)",
        aliases: [["daemon", "ping"]])

    init(arguments: inout Arguments, options: GlobalOptions) throws {}

    var method: Method { .daemonPing }
    var params: JSONValue? { nil }
}
