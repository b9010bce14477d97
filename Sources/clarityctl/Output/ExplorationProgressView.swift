import ControlProtocol

/// An exploration's `scenario.progress` as `explore`'s progress line says it (``ProgressLine``):
/// a bar on a terminal, a plain sentence in a log.
enum ExplorationProgressView {
    /// The terminal's text: `[######··········] 412/1000 schedules, 0 failed`.
    static func bar(done: Int, of total: Int, failed: Int) -> String {
        let width = 20
        let filled = min(width, done * width / max(total, 1))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "·", count: width - filled)
            + "] \(done)/\(total) schedules, \(failed) failed"
    }

    /// The log's text: `explore: 12,340 of 1,000,000 schedules, 0 failed, seeds 0–12339`; the
    /// seeds are those `covered` (all run from the first), when there are any. `label` names the
    /// command, and of a directory the scenario.
    static func plain(label: String, done: Int, of total: Int, failed: Int, covered: Int?, seeds: SeedRange) -> String {
        let covering = covered.flatMap { seeds.text(covered: $0) }.map { ", seeds \($0)" } ?? ""
        return "\(label): \(PlainText.grouped(done)) of \(PlainText.grouped(total)) schedules, "
            + "\(PlainText.grouped(failed)) failed\(covering)"
    }

    /// The text for notification `params` (`{"schedules","done","failed","covered"}`) in
    /// `style`; nil for one that is not an exploration's progress.
    static func text(_ params: JSONValue, style: ProgressLine.Style, label: String, seeds: SeedRange) -> String? {
        guard let done = params["done"]?.intValue, let total = params["schedules"]?.intValue, total > 0 else { return nil }
        let failed = params["failed"]?.intValue ?? 0
        switch style {
        case .terminal: return bar(done: done, of: total, failed: failed)
        case .plain:
            return plain(label: label, done: done, of: total, failed: failed, covered: params["covered"]?.intValue, seeds: seeds)
        }
    }
}
