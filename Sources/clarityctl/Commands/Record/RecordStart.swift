import ControlProtocol

/// `clarityctl record start`: starts recording the device's session (`record.start`).
struct RecordStart: ClarityCommand {
    static let help = CommandHelp(
        words: ["record", "start"], synopsis: "",
        abstract: "start recording the device's session as a scenario (record.start)",
        details: [
            "From now on every event, intent and clock advance the device receives is recorded;",
            "'record stop -o FILE' writes them as a scenario, after the requests the device received",
            "before, which rebuild it as it is now; 'clarityctl run FILE' replays it to the same trace.",
            "Refused (error -32009) when the device is recorded already, runs on the wall clock, was",
            "compacted, or received a request no scenario step gives again (store.set, device.config …).",
            "A recording lives in clarityd's memory: a restart of the daemon loses it.",
            "Example:",
            "  clarityctl record start --device lab",
        ])

    init(arguments: inout Arguments, options: GlobalOptions) throws {}

    func run(in session: Session) throws {
        let result = try session.call(Method.recordStart.rawValue, params: session.options.deviceParams())
        session.output.show(result, lines: RecordingView.startLines(result))
    }
}
