import ControlProtocol

/// `record start` and `record stop` results for people.
enum RecordingView {
    /// `record.start`'s answer: where the recording starts, and the history before it.
    static func startLines(_ result: JSONValue) -> [String] {
        let device = text(result["device"])
        let history = result["history"]?.intValue ?? 0
        return [
            "recording device \(device) from \(point(result["started"])), after \(PlainText.counted(history, "request")) that rebuild\(history == 1 ? "s" : "") it",
            "stop with: clarityctl record stop -o FILE --device \(device)",
        ]
    }

    /// `record.stop`'s answer, written to `file` (by clarityd when the answer has `bytes` and no
    /// scenario): the scenario's steps, where the history ends and the recording begins, what
    /// was recorded, the trace it covers, how to replay it.
    static func stopLines(_ result: JSONValue, file: String) -> [String] {
        let counts = result["counts"] ?? .null
        let history = counts["history"]?.intValue ?? 0
        let recorded = counts["recorded"]?.intValue ?? 0
        let kinds = [("events", "event"), ("intents", "intent"), ("advances", "advance")].map { member, noun in
            PlainText.counted(counts[member]?.intValue ?? 0, noun)
        }
        let failed = counts["failed"]?.intValue ?? 0
        let firstSeq = (result["started"]?["seq"]?.intValue ?? 0) + 1
        let lastSeq = result["stopped"]?["seq"]?.intValue ?? 0
        return [
            "wrote \(PlainText.counted(history + recorded, "step")) to \(file) ("
                + (result["scenario"].map { "scenario \(PlainText.compact($0["name"] ?? .null))" }
                    ?? "\(PlainText.counted(result["bytes"]?.intValue ?? 0, "byte")), too large to answer: written by clarityd")
                + ")",
            "  history:  \(steps(0, history)) rebuild device \(text(result["device"])) as it was at \(point(result["started"]))",
            "  recorded: \(steps(history, recorded)) until \(point(result["stopped"])): \(kinds.joined(separator: ", "))"
                + (failed > 0 ? "; \(failed) failed (their steps carry \"fails\")" : ""),
            "  trace:    " + (lastSeq >= firstSeq ? "seq \(firstSeq)–\(lastSeq) recorded" : "nothing recorded"),
            "replay it: clarityctl run \(file)",
        ]
    }

    /// `3 steps (steps[2]–steps[4])`.
    private static func steps(_ first: Int, _ count: Int) -> String {
        let range = count == 0 ? "" : count == 1 ? " (steps[\(first)])" : " (steps[\(first)]–steps[\(first + count - 1)])"
        return PlainText.counted(count, "step") + range
    }

    /// `seq 12 (t=0, 2026-01-05T09:00:00Z)`.
    private static func point(_ point: JSONValue?) -> String {
        "seq \(text(point?["seq"])) (t=\(text(point?["t"])), \(text(point?["time"])))"
    }

    private static func text(_ value: JSONValue?) -> String {
        value.map(PlainText.scalar) ?? "-"
    }
}
