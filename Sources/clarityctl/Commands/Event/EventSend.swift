import ControlProtocol

/// `clarityctl event TYPE`: something happens on the device (lock, open an app, tap a shield
/// button, a call, WiFi, a StoreKit transaction, contacts, a HealthKit sample, the main app's
/// process ended); prints its effects.
struct EventSend: MethodCommand {
    static let help = CommandHelp(
        words: ["event"],
        synopsis: "TYPE [--app BUNDLE] [--button primary|secondary] [--taps N] [--handle H] [--ssid S] [--product P] "
            + "[--contacts JSON] [KEY=VALUE ...]",
        abstract: "inject an event and show its effects (event)",
        details: [
            "KEY=VALUE adds any other field; VALUE is JSON when it parses as JSON, else a string.",
            "Examples:",
            "  clarityctl event app.open --app com.burbn.instagram",
            "  clarityctl event shield.press --app com.burbn.instagram --button primary",
            "  clarityctl event shield.press --app com.burbn.instagram --button secondary --taps 2   (a double tap)",
            "  clarityctl event storekit.purchase --product com.example.app.monthly",
            "  clarityctl event contacts.set --contacts '[{\"id\":\"1\",\"name\":\"Mom\",\"phone\":\"+15550100\"}]'",
            "  clarityctl event health.sample kind=steps value=2500          (kind: steps, activeEnergy, exerciseMinutes)",
            "  clarityctl event health.fail count=1                         (the next HealthKit query fails)",
            "  clarityctl event app.terminate --app com.example.app         (the main app's process ends)",
        ])

    /// The event types this build handles, listed by `--help` when clarityd cannot be asked.
    static let knownTypes = [
        "lock", "unlock", "device.reboot", "app.open", "app.close", "shield.press", "call.dial", "call.connect",
        "call.end", "wifi.join", "wifi.leave", "contacts.set", "storekit.purchase", "storekit.expire",
        "storekit.refund", "health.sample", "health.fail", "app.terminate", "network.offline", "network.online", "web.open",
        "web.close",
    ]

    /// Options whose value is sent as a string field of the same name.
    private static let stringFields = ["app", "handle", "ssid", "product"]

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        var members: [String: JSONValue] = [:]
        for field in Self.stringFields {
            if let value = try arguments.value(of: "--" + field) { members[field] = .string(value) }
        }
        if let button = try arguments.value(of: "--button") {
            members["button"] = .string(
                try ArgumentValues.choice(button, for: "--button", among: ["primary", "secondary"]))
        }
        if let taps = try arguments.value(of: "--taps") {
            members["taps"] = .int(try ArgumentValues.integer(taps, for: "--taps", minimum: 1))
        }
        if let contacts = try arguments.value(of: "--contacts") {
            members["contacts"] = try ArgumentValues.json(contacts, for: "--contacts")
        }
        let type = try arguments.positional("TYPE")
        members.merge(try ArgumentValues.keyValuePairs(arguments.remainingPositionals())) { _, pair in pair }
        members["type"] = .string(type)
        params = options.deviceParams(members)
    }

    var method: Method { .event }

    static func helpPage(in session: Session) -> CommandHelp {
        var page = help
        page.details = typeLines(DaemonCatalog.fetch(in: session)) + help.details
        return page
    }

    /// `TYPE: lock, unlock, …`: the daemon's event types when it could tell, else ``knownTypes``.
    static func typeLines(_ catalog: Result<DaemonCatalog, any Error>) -> [String] {
        let events = (try? catalog.get().events).flatMap { $0.isEmpty ? nil : $0 } ?? knownTypes
        return HelpText.wrapped(events, after: "TYPE: ")
    }
}
