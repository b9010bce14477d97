import ControlProtocol

/// `clarityctl device remove NAME`: removes a device and its state.
struct DeviceRemove: MethodCommand {
    static let help = CommandHelp(
        words: ["device", "remove"], synopsis: "NAME", abstract: "remove a device (device.remove)")

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        params = ["device": .string(try arguments.positional("NAME"))]
    }

    var method: Method { .deviceRemove }
}
