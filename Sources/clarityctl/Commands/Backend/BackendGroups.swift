import ControlProtocol

/// `clarityctl backend groups`: list a backend's groups and members.
struct BackendGroups: RequestCommand {
    static let help = CommandHelp(
        words: ["backend", "groups"], synopsis: "[--backend NAME]", abstract: "list a backend's groups and members (backend.groups)",
        details: [BackendParams.backendLine])

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        params = .object(try BackendParams.named(&arguments))
    }

    var methodName: String { "backend.groups" }
}
