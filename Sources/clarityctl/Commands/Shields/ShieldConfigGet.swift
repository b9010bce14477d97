import ControlProtocol

/// `clarityctl shield-config APP`: what the shield over `APP` would show now.
struct ShieldConfigGet: MethodCommand {
    static let help = CommandHelp(
        words: ["shield-config"], synopsis: "APP",
        abstract: "show the ShieldConfiguration for an app (shield.config)", aliases: [["shield", "config"]])

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        params = options.deviceParams(["app": .string(try arguments.positional("APP"))])
    }

    var method: Method { .shieldConfig }
    var presentation: Presentation { .shieldConfig }
}
