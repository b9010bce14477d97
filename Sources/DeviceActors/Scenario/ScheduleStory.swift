import ExtensionSandbox
@_spi(Host) import SimulatediOS

/// A failing schedule told as the story of its race: around each switch from one process to
/// another, the operations that mattered, one line each — who did what to which key or store,
/// with the value — and the switch itself, with what the process that was set aside was about to
/// do. What a user reads instead of a list of choices.
public enum ScheduleStory {
    /// Events shown before and after each switch.
    static let before = 3
    static let after = 4

    /// The kinds a story tells: what processes did that another could see or race with.
    static let told: Set<String> = [
        "store.read", "store.write", "store.remove", "store.writeLost", "shield.apply", "shield.clear", "notification",
        "extension.callback", "intent", "race", "app", "fault", "extension.jetsam", "timer.lost",
        "task.cancelled", "notification.suppressed",
    ]

    /// The story of `outcome`; a failed one ends with the failure and, when given, its
    /// explanation: the causal chain and the reads that differ from the sequential run.
    public static func lines(of outcome: ScenarioOutcome, explanation: FailureExplanation? = nil) -> [String] {
        let events = outcome.trace.filter { told.contains($0.entry.payload.kind) }
        var kept: [Int: String] = [:]
        for need in explanation?.needs ?? [] {
            if case .deviation(let deviation) = need.removed { kept[deviation.decision] = need.text }
        }
        let switches = switches(of: outcome, kept: kept)
        var lines: [String] = []
        if switches.isEmpty {
            lines = ["no switch: the schedule runs each process until it waits or ends"] + events.suffix(before + after).map(line)
        }
        var shown = Set<Int>()
        for mark in switches {
            let at = events.firstIndex { $0.entry.sequence > mark.afterSequence } ?? events.count
            let window = max(0, at - before)..<min(events.count, at + after)
            for index in window where index < at && shown.insert(index).inserted { lines.append(line(events[index])) }
            lines.append(mark.label)
            for index in window where index >= at && shown.insert(index).inserted { lines.append(line(events[index])) }
        }
        if let failure = outcome.failure {
            lines.append("✗ \(failure.invariant.map { "\($0): " } ?? "")\(failure.message)")
        }
        return lines + (explanation?.lines ?? [])
    }

    /// The schedule's switches (preemptions, and picks off the non-preemptive schedule), each
    /// told as a story line and placed after the trace event it followed: the story's and
    /// `--perfetto`'s marks.
    ///
    /// `kept` adds to a deviation's line why the schedule keeps it (``DeviationNeed``).
    public static func switches(of outcome: ScenarioOutcome, kept: [Int: String] = [:]) -> [PerfettoTrace.ScheduleSwitch] {
        // A task is named by the process it runs for at the decision; one that announced nothing
        // there, by the first process it announced elsewhere (a task can move from one process
        // to another: a delivery runs the monitor's callback, then SpringBoard asks
        // ShieldConfiguration). One that never announced an operation is named by its number:
        // the lines after the switch show what it did.
        var names: [Int: String] = [:]
        for decision in outcome.decisionLog {
            for candidate in decision.candidates where names[candidate.task] == nil {
                if let process = candidate.process { names[candidate.task] = process }
            }
        }
        return outcome.decisionLog.filter { $0.isPreemption || $0.deviates }.map {
            let why = kept[$0.index].map { " — \($0)" } ?? ""
            return PerfettoTrace.ScheduleSwitch(afterSequence: $0.position, label: switchLine($0, names: names) + why)
        }
    }

    private static func switchLine(_ decision: Decision, names: [Int: String]) -> String {
        func name(_ task: Int) -> String {
            let here = decision.candidates.first { $0.task == task }?.process
            guard let process = here ?? names[task] else { return "task \(task)" }
            return "\(process) (task \(task))"
        }
        let chosen = decision.candidates.first { $0.task == decision.chosen }
        var text = "⇄ decision \(decision.index): \(name(decision.chosen)) runs"
        text += chosen?.operation.map { " to \($0)" } ?? ""
        if let current = decision.current, let setAside = decision.candidates.first(where: { $0.task == current }) {
            text += " before \(name(current))"
            if let operation = setAside.operation { text += ", which was about to \(operation)" }
        } else {
            let others = decision.candidates.filter { $0.task != decision.chosen }.map { name($0.task) }
            if !others.isEmpty { text += ", ahead of \(others.joined(separator: ", "))" }
        }
        return text
    }

    /// `84  dailylimit.monitor  write group.com.example.dailylimit/requestsToday = 0`.
    private static func line(_ effect: TracedEffect) -> String {
        let entry = effect.entry
        let what: String
        switch entry.payload {
        case .storeRead(let suite, let key, _, let seen):
            what = "read \(suite)/\(key)" + (seen.map { $0.storedValue.map { " = \(ValueText.short($0))" } ?? " (absent)" } ?? "")
        case .storeWrite(let suite, let key, let value): what = "write \(suite)/\(key) = \(ValueText.short(value))"
        case .storeRemove(let suite, let key): what = "remove \(suite)/\(key)"
        case .storeWriteLost(let suite, let key): what = "write lost \(suite)/\(key)"
        case .shieldApply(let store, let applications, _, let webDomains):
            what = "shield \(store): \((applications + webDomains.map(WebDomain.foregroundName)).joined(separator: ", "))"
        case .shieldClear(let store): what = "clear shield \(store)"
        case .notification(let title, _): what = "notify \"\(title)\""
        case .extensionCallback(let name): what = "callback \(name)"
        case .intent(let name): what = "intent \(name)"
        case .log(let level, _, let message): what = "log \(level.rawValue): \(message)"
        case .fault(let fault, let operation): what = "FAULT \(fault) at \(operation)"
        case .timerLost(let label, let reason): what = "timer \(label) lost: its process \(reason)"
        case .taskCancelled(let operation, let reason): what = "task cancelled at \(operation): its process \(reason)"
        case .notificationSuppressed(let title, _, let reason): what = "notification \"\(title)\" not shown: \(reason)"
        case .race(let lost): what = "lost update of \(lost.key): overwrote \(lost.otherActor)'s write (seq \(lost.otherWriteSeq)) unseen"
        case .app(let event, let fields):
            what = ([event] + fields.sorted { $0.key < $1.key }.map { "\($0.key)=\(ValueText.short($0.value))" })
                .joined(separator: " ")
        default: what = entry.payload.kind
        }
        return "\(entry.sequence)  \(entry.actor)  \(what)"
    }
}
