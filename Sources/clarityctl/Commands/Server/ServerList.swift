import ControlProtocol

/// `clarityctl server list`: every instance of every server the daemon's apps registered.
struct ServerList: MethodCommand {
    static let help = CommandHelp(
        words: ["server", "list"], synopsis: "", abstract: "list the instances of the apps' servers (server.list)", details: [])

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        params = nil
    }

    var method: Method { .serverList }
}
