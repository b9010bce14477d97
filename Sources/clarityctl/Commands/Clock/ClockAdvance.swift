import ControlProtocol

/// `clarityctl advance DURATION`: moves the device's virtual clock forward, firing what falls due.
struct ClockAdvance: MethodCommand {
    static let help = CommandHelp(
        words: ["advance"], synopsis: "DURATION",
        abstract: "advance the virtual clock and show the effects (clock.advance)",
        details: ["DURATION: seconds (90, 1.5) or parts with units d, h, m, s: 90s, 10m, 1h30m, 2d, 1.5h"],
        aliases: [["clock", "advance"]])

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        let text = try arguments.positional("DURATION")
        guard let seconds = AdvanceDuration.seconds(text) else {
            throw UsageError("invalid DURATION '\(text)' (expected e.g. 90s, 10m, 1h30m, 2d, 1.5h or seconds)")
        }
        let wholeSeconds = seconds.rounded() == seconds && seconds < 1e15
        params = options.deviceParams(["seconds": wholeSeconds ? .int(Int(seconds)) : .double(seconds)])
    }

    var method: Method { .clockAdvance }
}
