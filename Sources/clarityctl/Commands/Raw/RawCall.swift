import ControlProtocol

/// `clarityctl call METHOD [PARAMS]`: any method with raw params; prints the raw result JSON.
/// `--device` is not added: the params are sent exactly as given.
struct RawCall: ClarityCommand {
    static let help = CommandHelp(
        words: ["call"], synopsis: "METHOD ['<json params>']",
        abstract: "call any method with raw JSON params; print the result as JSON",
        details: ["Example: clarityctl call shields.get '{\"device\":\"default\"}'"])

    let method: String
    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        method = try arguments.positional("METHOD")
        guard let text = arguments.optionalPositional() else {
            params = nil
            return
        }
        let params = try ArgumentValues.json(text, for: "params")
        guard params.objectValue != nil || params.arrayValue != nil else {
            throw UsageError("params must be a JSON object or array, got: \(text)")
        }
        self.params = params
    }

    func run(in session: Session) throws {
        session.output.showJSON(try session.call(method, params: params))
    }
}
