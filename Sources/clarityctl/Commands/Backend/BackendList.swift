import ControlProtocol

/// `clarityctl backend list`: list the backends (the instances of the server that answers `backend.*`).
struct BackendList: RequestCommand {
    static let help = CommandHelp(
        words: ["backend", "list"], synopsis: "", abstract: "list the backends (backend.list)",
        details: [])

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        params = nil
    }

    var methodName: String { "backend.list" }
}
