import ControlProtocol

/// `clarityctl sandboxes`: each extension's sandbox: state, memory budget and peak, launches, jetsams.
struct SandboxList: MethodCommand {
    static let help = CommandHelp(
        words: ["sandboxes"], synopsis: "", abstract: "show the extension sandboxes (sandbox.list)",
        aliases: [["sandbox", "list"]])

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        params = options.deviceParams()
    }

    var method: Method { .sandboxList }
    var presentation: Presentation { .sandboxes }
}
