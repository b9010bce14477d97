import ControlProtocol

/// `clarityctl shields`: the effective shield and each named ManagedSettingsStore's.
struct ShieldsGet: MethodCommand {
    static let help = CommandHelp(
        words: ["shields"], synopsis: "", abstract: "show shielded apps and categories per store (shields.get)",
        aliases: [["shields", "get"]])

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        params = options.deviceParams()
    }

    var method: Method { .shieldsGet }
    var presentation: Presentation { .shields }
}
