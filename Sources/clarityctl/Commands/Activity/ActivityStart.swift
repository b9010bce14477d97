import ControlProtocol

/// `clarityctl activity start NAME --schedule JSON`: starts monitoring an activity, as the app
/// calling `DeviceActivityCenter.startMonitoring(_:during:events:)`.
struct ActivityStart: MethodCommand {
    static let help = CommandHelp(
        words: ["activity", "start"], synopsis: "NAME --schedule JSON [--events JSON]",
        abstract: "start monitoring a device activity (activity.start)",
        details: [
            "  --schedule JSON  {\"intervalStart\":DC,\"intervalEnd\":DC,\"repeats\":bool,\"warningTime\"?:DC}",
            "  --events JSON    {\"<event name>\":{\"applications\"?:[...],\"categories\"?:[...],\"threshold\":DC}}",
            "DC is a DateComponents object: any of year, month, day, weekday, hour, minute, second.",
            "Example:",
            "  clarityctl activity start daily --schedule '{\"intervalStart\":{\"hour\":0},"
                + "\"intervalEnd\":{\"hour\":23,\"minute\":59},\"repeats\":true}'",
        ])

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        guard let schedule = try arguments.value(of: "--schedule") else {
            throw UsageError("missing --schedule JSON")
        }
        var members: [String: JSONValue] = [
            "schedule": .object(try ArgumentValues.jsonObject(schedule, for: "--schedule"))
        ]
        if let events = try arguments.value(of: "--events") {
            members["events"] = try ArgumentValues.json(events, for: "--events")
        }
        members["name"] = .string(try arguments.positional("NAME"))
        params = options.deviceParams(members)
    }

    var method: Method { .activityStart }
}
