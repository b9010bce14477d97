import ControlProtocol

/// `clarityctl backend scores`: list a user's weekly scores.
struct BackendScores: RequestCommand {
    static let help = CommandHelp(
        words: ["backend", "scores"], synopsis: "[--user NAME] [--backend NAME]", abstract: "list a user's weekly scores (backend.scores)",
        details: BackendParams.whoseLines)

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        params = try BackendParams.whose(&arguments, options: options)
    }

    var methodName: String { "backend.scores" }
}
