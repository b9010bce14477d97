import ControlProtocol

/// `clarityctl cancel ID [--connection N]`: stops a running exploration (`scenario.cancel`) from
/// another terminal or a CI step. `explore` says its ID and connection on stderr as it starts;
/// `clarityctl status` lists those running (`scenarios.explorations`). The exploration answers
/// its own caller with what it found (`stoppedBy: cancelled`). Exit status 1 when none ran
/// under that id.
struct ScenarioCancel: ClarityCommand {
    static let help = CommandHelp(
        words: ["cancel"], synopsis: "ID [--connection N]",
        abstract: "stop a running exploration (scenario.cancel)",
        details: [
            "  ID                    the exploration's request id, as explore prints it on stderr as it starts",
            "                        (explore: started as request 2 on connection 7; …); an integer, else a string",
            "  --connection N        the connection it runs on: needed when explorations on several connections",
            "                        share the id (ids are each connection's own); clarityctl status lists them",
            "The exploration stops before its next schedule and answers its caller with what it found so far.",
            "Exit status 1 when no exploration runs or waits under that id.",
            "Example:",
            "  clarityctl cancel 2 --connection 7",
        ], aliases: [["scenario", "cancel"]])

    /// `scenario.cancel`'s params.
    let params: [String: JSONValue]

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        let connection = try arguments.value(of: "--connection").map {
            try ArgumentValues.integer($0, for: "--connection", minimum: 1)
        }
        let id = try arguments.positional("ID (the exploration's request id, as explore prints it)")
        var params: [String: JSONValue] = ["id": Int(id).map(JSONValue.int) ?? .string(id)]
        params["connection"] = connection.map(JSONValue.int)
        self.params = params
    }

    func run(in session: Session) throws {
        let result = try session.call(Method.scenarioCancel.rawValue, params: .object(params))
        let request = "request \(PlainText.scalar(params["id"] ?? .null))"
            + (params["connection"].map { " on connection \(PlainText.scalar($0))" } ?? "")
        guard result["cancelled"] == true else {
            session.output.show(result, lines: [])
            throw ScenarioFailed(
                message: "cancel: no exploration runs or waits under \(request) (clarityctl status lists them under scenarios: explorations)")
        }
        session.output.show(result, lines: ["cancelled: \(request); it answers its caller with what it found"])
    }
}
