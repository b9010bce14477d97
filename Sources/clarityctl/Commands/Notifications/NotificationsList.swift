import ControlProtocol

/// `clarityctl notifications`: the local notifications the device delivered.
struct NotificationsList: MethodCommand {
    static let help = CommandHelp(
        words: ["notifications"], synopsis: "[--since T]",
        abstract: "list delivered notifications (notifications.list)",
        details: ["  --since T   only those at or after t = T seconds since the device's epoch"],
        aliases: [["notifications", "list"]])

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        var members: [String: JSONValue] = [:]
        if let since = try arguments.value(of: "--since") {
            members["since"] = try ArgumentValues.number(since, for: "--since")
        }
        params = options.deviceParams(members)
    }

    var method: Method { .notificationsList }
    var presentation: Presentation { .notifications }
}
