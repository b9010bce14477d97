import ControlProtocol

/// What `scenario.explore`'s report says of its scenario: it passed, or why not. The daemon's
/// `passed` is the verdict; the reason is read from the rest of the report, so that the summary,
/// the error line and the JUnit case all say it the same way.
enum ExplorationVerdict: Equatable {
    case passed
    /// Schedules failed (`failed` of `schedules`).
    case failed(failed: Int, schedules: Int)
    /// The scenario pins a race (`expectFailure`) that none of `schedules` found.
    case raceNotFound(schedules: Int)
    /// No schedule ran, so nothing was explored: `stoppedBy` says what stopped it first
    /// (`timeLimit`, `cancelled`, `shutdown`).
    case nothingRan(stoppedBy: String?)
    /// Stopped from outside — `scenario.cancel` (`clarityctl cancel`, Ctrl-C) or the daemon
    /// stopping — after `schedules` that all passed, before the others ran: not a pass (nor, for
    /// a pinned race, a race no longer found), since what it was asked to look at was not all
    /// looked at. (A `timeLimit` is the caller's own bound,
    /// so an exploration it stopped passes on what ran.)
    case stopped(by: String, schedules: Int)

    init(_ report: JSONValue) {
        let schedules = report["schedules"]?.intValue ?? 0
        let failed = report["failed"]?.intValue ?? 0
        let expectsFailure = report["expectFailure"] == true
        let passed = report["passed"]?.boolValue ?? (schedules > 0 && (expectsFailure ? failed > 0 : failed == 0))
        let stoppedBy = report["stoppedBy"]?.stringValue
        if let stoppedBy, Self.fromOutside.contains(stoppedBy), schedules > 0, failed == 0 {
            self = .stopped(by: stoppedBy, schedules: schedules)
        } else if passed {
            self = .passed
        } else if schedules == 0 {
            self = .nothingRan(stoppedBy: stoppedBy)
        } else if expectsFailure, failed == 0 {
            self = .raceNotFound(schedules: schedules)
        } else {
            self = .failed(failed: failed, schedules: schedules)
        }
    }

    /// The `stoppedBy` of an exploration stopped from outside.
    static let fromOutside: Set<String> = ["cancelled", "shutdown"]

    /// Why it did not pass, one line; nil when it passed.
    var reason: String? {
        switch self {
        case .passed: nil
        case .failed(let failed, let schedules): "\(failed) of \(PlainText.counted(schedules, "schedule")) failed"
        case .raceNotFound(let schedules):
            "expected a failure (expectFailure), but none of \(PlainText.counted(schedules, "schedule")) failed: "
                + "the race it pins is no longer found"
        case .nothingRan(let stoppedBy):
            "no schedule ran\(stoppedBy.map { " (stopped by \($0))" } ?? ""), so nothing was explored: not a pass"
                + (stoppedBy == "timeLimit" ? "; give it a longer --time-limit" : "")
        case .stopped(let stoppedBy, let schedules):
            "stopped (\(stoppedBy)) after \(PlainText.counted(schedules, "schedule")), before the rest ran: not a pass"
        }
    }
}
