import ControlProtocol

/// `clarityctl activity stop NAME…`: stops monitoring the named activities.
struct ActivityStop: MethodCommand {
    static let help = CommandHelp(
        words: ["activity", "stop"], synopsis: "NAME [NAME ...]", abstract: "stop monitoring activities (activity.stop)"
    )

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        let names = arguments.remainingPositionals()
        guard !names.isEmpty else { throw UsageError("missing NAME") }
        params = options.deviceParams(["names": .array(names.map(JSONValue.string))])
    }

    var method: Method { .activityStop }
}
