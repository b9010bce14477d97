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

    init(_ report: JSONValue) {
        let schedules = report["schedules"]?.intValue ?? 0
        let failed = report["failed"]?.intValue ?? 0
        let expectsFailure = report["expectFailure"] == true
        let passed = report["passed"]?.boolValue ?? (schedules > 0 && (expectsFailure ? failed > 0 : failed == 0))
        if passed {
            self = .passed
        } else if schedules == 0 {
            self = .nothingRan(stoppedBy: report["stoppedBy"]?.stringValue)
        } else if expectsFailure, failed == 0 {
            self = .raceNotFound(schedules: schedules)
        } else {
            self = .failed(failed: failed, schedules: schedules)
        }
    }

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
        }
    }
}
