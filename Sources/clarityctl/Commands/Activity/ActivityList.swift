import ControlProtocol

/// `clarityctl activity list`: the monitored activities with their schedules and events.
struct ActivityList: RequestCommand {
    static let help = CommandHelp(
        words: ["activity", "list"], synopsis: "", abstract: "list monitored activities (activity.list)")

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        params = options.deviceParams()
    }

    var method: Method { .activityList }
}
