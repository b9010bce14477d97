import ControlProtocol

/// `clarityctl backend list`: list The Phone's backends.
struct BackendList: RequestCommand {
    static let help = CommandHelp(
        words: ["backend", "list"], synopsis: "", abstract: "list The Phone's backends (backend.list)",
        details: [])

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        params = nil
    }

    var method: Method { .backendList }
}
