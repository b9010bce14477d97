/// A scenario that failed: `explore` found a failing schedule, or the schedule `run` or `replay`
/// ran failed; or `cancel` found no exploration to cancel (exit status 1). The result already
/// shows the failure, so only `message` is added, on stderr; with `--json` nothing is (the
/// result's `failed` and `passed`, or `cancelled`, say it).
struct ScenarioFailed: Error, Sendable {
    /// What failed, e.g. `explore: 1 of 3 schedules failed`.
    let message: String
}
