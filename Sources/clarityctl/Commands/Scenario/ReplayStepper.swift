import ControlProtocol
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `clarityctl replay … --step`: walks a replay a decision at a time, as a debugger steps. At
/// each decision it prints who runs next and what it is about to do, the tasks ready beside it
/// and the story's line for it, with a live device standing there (`scenario.replay`'s `until`);
/// then reads a command: Enter or `n` the next decision, `c` the run's end, `q` quits leaving the
/// device standing. Each step replaces the device by one standing a decision further (a replay
/// again: the same schedule stops at the same place). Standard input that is not a terminal is
/// read a command a line, without a prompt; its end quits.
struct ReplayStepper {
    let options: ScheduleOptions
    /// `scenario.replay`'s params, `until` set to where the walk starts.
    let params: [String: JSONValue]

    /// Exit status 1 when the schedule failed, as every replay's (``ScheduleOptions/check(_:command:)``).
    func walk(in session: Session) throws {
        var request = params
        request["walk"] = true
        var result = try options.daemon.call(.scenarioReplay, .object(request), in: session)
        let walk = result["walk"]?.arrayValue ?? []
        let decisions = result["decisions"]?.intValue ?? walk.count
        var summary = result
        if case .object(var members) = summary {
            members["walk"] = nil
            summary = .object(members)
        }
        session.output.show(summary, lines: ScenarioView.scheduleLines(summary, trace: options.showsTrace))
        request["walk"] = nil
        try steps(from: &result, request: request, walk: walk, decisions: decisions, in: session)
        try ScheduleOptions.check(summary, command: ScenarioReplay.help.name)
    }

    private func steps(
        from result: inout JSONValue, request: [String: JSONValue], walk: [JSONValue], decisions: Int, in session: Session
    ) throws {
        var request = request
        let prompts = isatty(STDIN_FILENO) == 1
        while true {
            let at = result["stoppedAt"]?["decision"]?.intValue
            let device = result["device"]?.stringValue ?? "?"
            session.output.show(at.map { walk[$0] } ?? .null, lines: Self.lines(walk: walk, at: at, decisions: decisions, result))
            guard let at else { return }
            var next: Int?
            while next == nil {
                if prompts {
                    FileHandle.standardError.write(
                        Data("[Enter/n] next decision, [c] continue to the end, [q] quit (\(device) stays)> ".utf8))
                }
                guard let line = readLine(strippingNewline: true) else { return }
                switch line.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? "" {
                case "", "n": next = at + 1
                case "c": next = decisions
                case "q": return
                default: session.output.note("commands: Enter or n (next decision), c (continue to the end), q (quit)")
                }
            }
            request["until"] = ["decision": .int(next!)]
            let remove: JSONValue = ["device": .string(device)]
            // A name of the user's own is the same at every step: it is freed first. Named by
            // the daemon, the next device is made first, so that a name already taken (a device
            // of an earlier walk) stops the walk with the current device still standing.
            if request["device"] != nil {
                _ = try session.call(Method.deviceRemove.rawValue, params: remove)
                result = try options.daemon.call(.scenarioReplay, .object(request), in: session)
            } else {
                result = try options.daemon.call(.scenarioReplay, .object(request), in: session)
                _ = try session.call(Method.deviceRemove.rawValue, params: remove)
            }
        }
    }

    /// The decision the device stands before (`at`, nil at the run's end): who runs next and what
    /// it is about to do, who else is ready, the story's line, and the device.
    static func lines(walk: [JSONValue], at: Int?, decisions: Int, _ result: JSONValue) -> [String] {
        let device = result["device"]?.stringValue ?? "?"
        let stop = result["stoppedAt"]
        let place = "seq \(PlainText.scalar(stop?["seq"] ?? .null)), t=\(PlainText.scalar(stop?["t"] ?? .null))"
        guard let at, at < walk.count else {
            return ["end of the run (\(decisions) decisions): device \(device) stands there (\(place))"]
        }
        let step = walk[at]
        var lines = ["decision \(at) of \(decisions), after seq \(PlainText.scalar(step["seq"] ?? .null)); next: \(step["runs"]?.stringValue ?? "?")"]
        let ready = step["ready"]?.arrayValue?.compactMap(\.stringValue) ?? []
        lines += ready.enumerated().map { index, task in (index == 0 ? "  ready: " : "         ") + task }
        if let story = step["story"]?.stringValue { lines.append("  " + story) }
        lines.append("  device \(device) stands here (\(place)): clarityctl --device \(device) device state")
        return lines
    }
}
