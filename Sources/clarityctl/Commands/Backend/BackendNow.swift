import ControlProtocol

/// `clarityctl backend now`: show a backend's clock.
struct BackendNow: RequestCommand {
    static let help = CommandHelp(
        words: ["backend", "now"], synopsis: "[--backend NAME]", abstract: "show a backend's clock (backend.now)",
        details: [BackendParams.backendLine])

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        params = .object(try BackendParams.named(&arguments))
    }

    var methodName: String { "backend.now" }
}
