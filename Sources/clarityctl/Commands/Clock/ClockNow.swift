import ControlProtocol

/// `clarityctl now`: the device's virtual time.
struct ClockNow: MethodCommand {
    static let help = CommandHelp(words: ["now"], synopsis: "", abstract: "show the device's virtual time (clock.now)",
        aliases: [["clock", "now"]])

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        params = options.deviceParams()
    }

    var method: Method { .clockNow }
}
