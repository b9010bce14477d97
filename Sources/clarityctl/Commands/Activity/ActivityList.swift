import ControlProtocol

/// `clarityctl activity list`: the monitored activities, one line each (``ActivitiesView``).
struct ActivityList: MethodCommand {
    static let help = CommandHelp(
        words: ["activity", "list"], synopsis: "", abstract: "list monitored activities (activity.list)",
        details: [
            "One line per activity: name, phase, its current or next interval, whether it repeats, and",
            "each event's usage against its threshold (friction_layer_1 120/300s). --json shows them in full.",
        ])

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        params = options.deviceParams()
    }

    var method: Method { .activityList }
    var presentation: Presentation { .activities }
}
