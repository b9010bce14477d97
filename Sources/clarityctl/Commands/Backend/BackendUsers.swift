import ControlProtocol

/// `clarityctl backend users`: list a backend's users.
struct BackendUsers: RequestCommand {
    static let help = CommandHelp(
        words: ["backend", "users"], synopsis: "[--backend NAME]", abstract: "list a backend's users (backend.users)",
        details: [BackendParams.backendLine])

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        params = .object(try BackendParams.named(&arguments))
    }

    var methodName: String { "backend.users" }
}
