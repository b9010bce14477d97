import ControlProtocol

/// `clarityctl device create NAME`: a new simulated device running one app bundle. Without
/// `--app` no `app` is sent, so the daemon's `defaultApp` applies.
struct DeviceCreate: RequestCommand {
    static let help = CommandHelp(
        words: ["device", "create"],
        synopsis: "NAME [--app APP] [--clock virtual|wall] [--start ISO] [--timezone TZ] [--seed N] [--config JSON]",
        abstract: "create a device (device.create)",
        details: [
            "  --app APP         clarity (default: the daemon's defaultApp); scrollkitty, spendless, makehay, thephone are coming",
            "  --clock MODE      virtual (default: the daemon's) or wall",
            "  --start ISO       the virtual clock's start, e.g. 2026-01-05T09:00:00Z",
            "  --timezone TZ     e.g. Europe/Berlin",
            "  --seed N          the device's random seed",
            "  --config JSON     per-device overrides, e.g. '{\"memoryBudgets\":{\"monitor\":6291456}}'",
        ])

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        var members: [String: JSONValue] = [:]
        if let app = try arguments.value(of: "--app") { members["app"] = .string(app) }
        if let clock = try arguments.value(of: "--clock") {
            members["clock"] = .string(try ArgumentValues.choice(clock, for: "--clock", among: ["virtual", "wall"]))
        }
        if let start = try arguments.value(of: "--start") { members["start"] = .string(start) }
        if let timezone = try arguments.value(of: "--timezone") { members["timezone"] = .string(timezone) }
        if let seed = try arguments.value(of: "--seed") {
            members["seed"] = .int(try ArgumentValues.integer(seed, for: "--seed"))
        }
        if let config = try arguments.value(of: "--config") {
            members["config"] = .object(try ArgumentValues.jsonObject(config, for: "--config"))
        }
        members["device"] = .string(try arguments.positional("NAME"))
        params = .object(members)
    }

    var method: Method { .deviceCreate }
}
