import ControlProtocol

/// `clarityctl device state`: the device's snapshot (lock, foreground app, WiFi, call, shields, sandboxes, app state).
struct DeviceState: MethodCommand {
    static let help = CommandHelp(
        words: ["device", "state"], synopsis: "", abstract: "show the device's state (device.state)")

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        params = options.deviceParams()
    }

    var method: Method { .deviceState }
    var presentation: Presentation { .deviceState }
}
