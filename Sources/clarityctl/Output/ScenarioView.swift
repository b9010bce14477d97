import ControlProtocol
import Foundation

/// Scenario results for people: an exploration's summary and each of its failures with the
/// commands that replay it (`explore`); one schedule's verdict, failure, trace and schedule
/// sizes (`run`, `replay`).
enum ScenarioView {
    /// `scenario.explore`'s report: the summary, then each failure; `replayLines` gives the
    /// commands that replay a failure. With `seeds`, the summary says which seeds all ran from
    /// the first (the report's `covered`); `resume` is the command that goes on from there.
    static func explorationLines(
        _ report: JSONValue, seeds: SeedRange? = nil, resume: String? = nil, replayLines: (JSONValue) -> [String]
    ) -> [String] {
        var lines = labelled([
            ("schedules", text(report["schedules"])),
            ("failed", text(report["failed"])),
            ("schedules/s", decimal(report["schedulesPerSecond"], digits: 1)),
            ("steps/s", decimal(report["stepsPerSecond"], digits: 0)),
        ] + (report["decisionsPerSecond"].map { [("decisions/s", decimal($0, digits: 0))] } ?? []) + [
            ("seconds", decimal(report["seconds"], digits: 2)),
        ] + interleavings(report) + [
            ("stoppedBy", text(report["stoppedBy"])),
        ] + verdictLine(report) + coverage(report, seeds: seeds, resume: resume) + (report["expectFailure"] == true
            ? [("expected", "a failure (expectFailure: a known race, pinned): " + ((report["failed"]?.intValue ?? 0) > 0 ? "found, so it passes" : "not found, so it fails"))]
            : []) + (report["exhaustive"].map { exhaustive in
            let bound = report["bound"].map(text)
            return [("exhaustive", exhaustive == true
                ? bound.map { "yes: every schedule with at most \($0) preemptions ran" }
                    ?? "yes: every schedule ran (no bound: none needs more preemptions than the last bound searched)"
                : bound.map { "no: stopped before every schedule within the bound (\($0)) ran" }
                    ?? "no: stopped before every schedule ran (no bound)")]
        } ?? []) + (report["pruned"].map { pruned in
            [("pruned", "\(text(pruned)) (orders of commuting steps already run, cut short)")]
        } ?? []) + (report["implausible"].map { implausible in
            [("implausible", "\(text(implausible)) failing schedule(s) set aside: they need a stall or a fault (--plausible)")]
        } ?? []))
        let failures = report["failures"]?.arrayValue ?? []
        for (index, failure) in failures.enumerated() {
            lines += ["", "failure \(index + 1): \(text(failure["message"]))"]
            lines += labelled(failureFacts(failure), indent: "  ")
            let story = failure["story"]?.arrayValue?.compactMap(\.stringValue) ?? []
            if !story.isEmpty { lines += ["  story:"] + story.map { "    " + $0 } }
            lines += ["  replay:"] + replayLines(failure).map { "    " + $0 }
        }
        let unshown = (report["failed"]?.intValue ?? 0) - failures.count
        if unshown > 0 {
            // A daemon that weighs plausibility keeps, when it stops at a failure, the most
            // plausible of it and the first found; else the failures with the lowest indexes.
            let kept =
                report["stoppedBy"] == "failure" && failures.first?["lessPlausibleSeen"] != nil
                ? "the daemon keeps the most plausible and the first found" : "the daemon keeps those with the lowest indexes"
            lines += ["", "(\(PlainText.counted(unshown, "more failing schedule")): \(kept))"]
        }
        return lines
    }

    /// The line that says an exploration that ran no schedule, or was stopped from outside, did
    /// not pass; none otherwise.
    private static func verdictLine(_ report: JSONValue) -> [(String, String)] {
        switch ExplorationVerdict(report) {
        case .nothingRan, .stopped: ExplorationVerdict(report).reason.map { [("passed", "no: \($0)")] } ?? []
        default: []
        }
    }

    /// `seeds: 0–409`, the seeds of the schedules that all ran from the first, and `resume:` the
    /// command that goes on from there; nothing without `covered` (a `dfs` search) or `seeds`.
    private static func coverage(_ report: JSONValue, seeds: SeedRange?, resume: String?) -> [(String, String)] {
        guard let seeds, let covered = report["covered"]?.intValue else { return [] }
        return [("seeds", seeds.text(covered: covered) ?? "(none)")] + (resume.map { [("resume", $0)] } ?? [])
    }

    /// `coverage: 37 interleavings (12 seen once; 2 new in the last 100 schedules); chance the next is
    /// new ≈ 1.2%`: the report's `coverage` (random and PCT), what a CI budget is chosen on.
    private static func interleavings(_ report: JSONValue) -> [(String, String)] {
        guard let coverage = report["coverage"], let count = coverage["interleavings"]?.intValue else { return [] }
        let chance = (coverage["newInterleavingChance"]?.doubleValue ?? 0) * 100
        return [(
            "coverage",
            "\(PlainText.counted(count, "interleaving")) (\(text(coverage["seenOnce"])) seen once; \(text(coverage["newInRecent"])) new in the last "
                + "\(PlainText.counted(coverage["recentSchedules"]?.intValue ?? 0, "schedule"))); "
                + "chance the next is new ≈ \(String(format: "%.1f", chance))%"
        )]
    }

    /// `scenario.run` / `scenario.replay`'s result: the trace lines first when `trace` (as
    /// `clarityctl trace` prints them), then the verdict and its failure, the strategy, the
    /// number of trace events and of choices in the schedule.
    static func scheduleLines(_ result: JSONValue, trace: Bool) -> [String] {
        let events = result["trace"]?.arrayValue ?? []
        var facts = [("result", result["passed"]?.boolValue == true ? "passed" : "failed")]
        if let failure = result["failures"]?.arrayValue?.first {
            facts += [
                ("failure", text(failure["message"])), ("invariant", text(failure["invariant"])),
                ("step", text(failure["step"])),
            ]
        }
        facts.append(("strategy", strategyText(result)))
        let quirks = (result["quirks"]?.objectValue ?? [:]).filter { $0.value == true }.keys.sorted()
        if !quirks.isEmpty { facts.append(("quirks", quirks.joined(separator: ", "))) }
        facts.append(("trace", PlainText.counted(events.count, "event")))
        facts.append(("schedule", scheduleText(result)))
        facts.append(("token", text(result["token"])))
        if let plausibility = result["plausibility"]?.stringValue { facts.append(("likely", likelihood(plausibility, result))) }
        if let divergence = result["divergence"]?.stringValue {
            facts.append(("divergence", divergence + " (the scenario or the build is not the one the schedule came from)"))
        }
        if let device = result["device"]?.stringValue, let stop = result["stoppedAt"] {
            let place = stop["decision"]?.intValue.map { "before decision \($0)" } ?? "at the run's end"
            facts.append(("device", "\(device), standing \(place) (seq \(text(stop["seq"])), t=\(text(stop["t"])))"))
            let held = stop["ready"]?.arrayValue?.compactMap(\.stringValue) ?? []
            if !held.isEmpty { facts.append(("held", held.joined(separator: "; "))) }
        }
        var summary = labelled(facts)
        let story = result["story"]?.arrayValue?.compactMap(\.stringValue) ?? []
        if !story.isEmpty { summary += ["story:"] + story.map { "  " + $0 } }
        if let device = result["device"]?.stringValue {
            summary.append("inspect and drive it: clarityctl --device \(device) device state | store get KEY | event TYPE | advance 10m")
        }
        return trace ? EffectLines.lines(forTrace: .array(events)) + [""] + summary : summary
    }

    /// `31 decisions, 3 preemptions`; a FIFO run's switches are its turns, not preemptions:
    /// `31 decisions, no preemption (21 switches: FIFO's turns)`.
    private static func scheduleText(_ result: JSONValue) -> String {
        let decisions = PlainText.counted(result["decisions"]?.intValue ?? 0, "decision")
        let preemptions = result["preemptions"]?.intValue ?? 0
        // A daemon from before `switches` counted FIFO's turns as preemptions: shown as it said.
        guard result["strategy"] == "fifo", let switches = result["switches"]?.intValue, switches > 0 else {
            return "\(decisions), \(PlainText.counted(preemptions, "preemption"))"
        }
        return "\(decisions), no preemption (\(PlainText.counted(switches, "switch", plural: "switches")): FIFO's turns)"
    }

    /// `1 (3 as found)`; a failure of FIFO's own schedule: `0 (78 switches: FIFO's turns)`.
    private static func preemptionsText(_ failure: JSONValue) -> String {
        let preemptions = "\(text(failure["preemptions"])) (\(text(failure["originalPreemptions"])) as found)"
        guard failure["strategy"] == "fifo", failure["preemptions"] == 0, let switches = failure["switches"]?.intValue,
            switches > 0
        else { return preemptions }
        return "0 (\(PlainText.counted(switches, "switch", plural: "switches")): FIFO's turns)"
    }

    /// What a failure says about itself, after its message.
    private static func failureFacts(_ failure: JSONValue) -> [(String, String)] {
        var facts = [
            ("invariant", text(failure["invariant"])), ("step", text(failure["step"])),
            ("seed", text(failure["seed"])), ("strategy", text(failure["strategy"])),
        ]
        if let depth = failure["depth"] { facts.append(("depth", text(depth))) }
        if let kind = failure["kind"], kind != .null { facts.append(("kind", text(kind))) }
        facts += [
            ("preemptions", preemptionsText(failure)),
            ("schedule", "\(text(failure["schedule"])) (\(PlainText.counted(failure["deviations"]?.intValue ?? 0, "switch", plural: "switches")) from running each process on; \(text(failure["originalLength"])) decisions as found)"),
            ("quirks", quirksText(failure["quirks"])),
        ]
        if let plausibility = failure["plausibility"]?.stringValue { facts.append(("likely", likelihood(plausibility, failure))) }
        facts += [
            ("build", ["configuration", "compiler", "version", "revision"].compactMap { failure["build"]?[$0].map(text) }.joined(separator: ", ")),
        ]
        return facts
    }

    /// `needs a stall; needs example.app to pause ≥ 38.44 ms before read NEHotspotNetwork/ssid
    /// (3 less plausible schedules of this failure seen)`: the class, and the stalls longer than a
    /// quantum (those under one are `likely`; `--json` has every preemption's).
    private static func likelihood(_ plausibility: String, _ failure: JSONValue) -> String {
        let stalls = (failure["stalls"]?.arrayValue ?? []).filter { $0["likely"] == false }
            .compactMap { $0["text"]?.stringValue }
        let seen = failure["lessPlausibleSeen"]?.intValue ?? 0
        return ([plausibility] + stalls).joined(separator: "; ")
            + (seen > 0 ? " (\(PlainText.counted(seen, "less plausible schedule")) of this failure seen)" : "")
    }

    /// `pct, seed 2, depth 3, 151 expected decisions`; `fifo` (it has no seed); `replay` for a
    /// replayed schedule.
    private static func strategyText(_ result: JSONValue) -> String {
        var parts = [text(result["strategy"])]
        if let seed = result["seed"], result["strategy"] != "fifo" { parts.append("seed \(text(seed))") }
        if let depth = result["depth"] { parts.append("depth \(text(depth))") }
        if let expected = result["expectedDecisions"] { parts.append("\(text(expected)) expected decisions") }
        return parts.joined(separator: ", ")
    }

    private static func quirksText(_ quirks: JSONValue?) -> String {
        let names = (quirks?.objectValue ?? [:]).filter { $0.value == true }.keys.sorted()
        return names.isEmpty ? "(none)" : names.joined(separator: ", ")
    }

    /// `label: value` lines with the values aligned.
    private static func labelled(_ facts: [(String, String)], indent: String = "") -> [String] {
        let width = (facts.map(\.0.count).max() ?? 0) + 1
        return facts.map { indent + PlainText.padded($0.0 + ":", to: width) + " " + $0.1 }
    }

    /// A member as plain text; `-` when absent or null.
    private static func text(_ value: JSONValue?) -> String {
        value.map(PlainText.cell) ?? "-"
    }

    private static func decimal(_ value: JSONValue?, digits: Int) -> String {
        guard let number = value?.doubleValue else { return "-" }
        return String(format: "%.\(digits)f", number)
    }
}
