import ControlProtocol
@_spi(Host) import SimulatediOS

/// The `kinds` that `subscribe` and `trace.get` select by: each a kind (`store.write`), or with a
/// trailing `.` the kinds under it (`monitor.`; `monitor` alone also passes, as clarityctl sends
/// it beside `monitor.`). What selects nothing a device can trace is refused rather than
/// answered with silence, and the list is bounded: 200 subscribers with 50 000 kinds each once
/// took 900 MB and slowed every write of their device 300-fold.
enum TraceKindSelection {
    /// Most kinds one request may select (there are ``Effect/kinds``.count kinds in all).
    static let maxKinds = 64
    /// Longest selector, in bytes.
    static let maxLength = 64

    /// Why `kinds` (when given) cannot select: the field (`kinds`, `kinds[3]`) and the reason.
    static func problem(_ kinds: [String]?) -> (field: String, reason: String)? {
        guard let kinds else { return nil }
        if kinds.isEmpty { return ("kinds", "give at least one kind, or leave kinds out for every kind") }
        if kinds.count > maxKinds { return ("kinds", "\(kinds.count) kinds; at most \(maxKinds)") }
        var seen: Set<String> = []
        for (index, kind) in kinds.enumerated() {
            let field = "kinds[\(index)]"
            if kind.isEmpty { return (field, "must name a kind, e.g. store.write or monitor.") }
            if kind.utf8.count > maxLength { return (field, "longer than \(maxLength) bytes: no kind is") }
            if !seen.insert(kind).inserted { return (field, "\(kind) is listed twice") }
            guard selectsSomething(kind) else {
                let suggestion = Spelling.nearest(to: kind, among: Effect.kinds).map { "did you mean \($0)? " } ?? ""
                return (field, "\(kind) is no kind of trace event (\(suggestion)known: \(Effect.kinds.joined(separator: ", ")))")
            }
        }
        return nil
    }

    /// Whether `selector` is a kind, or a prefix of a kind at a dot.
    private static func selectsSomething(_ selector: String) -> Bool {
        let prefix = selector.hasSuffix(".") ? selector : selector + "."
        return Effect.kinds.contains { $0 == selector || ($0.hasPrefix(prefix) && prefix.count > 1) }
    }
}
