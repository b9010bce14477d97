import ControlProtocol

/// `clarityctl device list`: every device the daemon hosts, with its apps and platform.
struct DeviceList: MethodCommand {
    static let help = CommandHelp(words: ["device", "list"], synopsis: "", abstract: "list devices (device.list)")

    init(arguments: inout Arguments, options: GlobalOptions) throws {}

    var method: Method { .deviceList }
    var presentation: Presentation { .devices }
    var params: JSONValue? { nil }
}
