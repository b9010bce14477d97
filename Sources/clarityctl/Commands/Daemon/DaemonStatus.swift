import ControlProtocol

/// `clarityctl status`: the daemon's version, pid, uptime, socket, state directory, devices and connections.
struct DaemonStatus: MethodCommand {
    static let help = CommandHelp(words: ["status"], synopsis: "", abstract: "show the daemon's status (daemon.status)",
        aliases: [["daemon", "status"]])

    init(arguments: inout Arguments, options: GlobalOptions) throws {}

    var method: Method { .daemonStatus }
    var params: JSONValue? { nil }
    var presentation: Presentation { .status }
}
