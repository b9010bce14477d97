import ControlProtocol

/// `clarityctl config [JSON]`: the device's effective config, or sets per-device overrides.
struct DeviceConfig: MethodCommand {
    static let help = CommandHelp(
        words: ["config"], synopsis: "[JSON]",
        abstract: "show the device's config, or set overrides from a JSON object (device.config)",
        details: ["Example: clarityctl config '{\"memoryBudgets\":{\"monitor\":6291456},\"baselineBytes\":1048576}'"],
        aliases: [["device", "config"]])

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        var members: [String: JSONValue] = [:]
        if let config = arguments.optionalPositional() {
            members["config"] = .object(try ArgumentValues.jsonObject(config, for: "the config"))
        }
        params = options.deviceParams(members)
    }

    var method: Method { .deviceConfig }
}
