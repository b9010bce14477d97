import ControlProtocol

/// `clarityctl backend events`: list the events a backend stored for a user.
struct BackendEvents: RequestCommand {
    static let help = CommandHelp(
        words: ["backend", "events"], synopsis: "[--user NAME] [--backend NAME]", abstract: "list the events a backend stored for a user (backend.events)",
        details: BackendParams.whoseLines)

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        params = try BackendParams.whose(&arguments, options: options)
    }

    var methodName: String { "backend.events" }
}
