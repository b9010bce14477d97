import ControlProtocol

/// Effects and trace events, one per line: `t  kind  actor  field=value …` with the leading
/// columns aligned (trace events lead with their `seq`). `time` is left out (it repeats `t`);
/// string values are unquoted unless they hold spaces.
enum EffectLines {
    /// The columns of an effect line; the other members follow as `field=value`.
    static let effectColumns = ["t", "kind", "actor"]
    /// The columns of a trace line: the `seq` first, so that `trace --since` can resume from it.
    static let traceColumns = ["seq"] + effectColumns
    /// Columns of numbers, aligned to the right.
    private static let numberColumns: Set = ["seq", "t"]

    /// Whether every object has the `t`, `kind` and `actor` of an effect.
    static func areEffects(_ objects: [[String: JSONValue]]) -> Bool {
        objects.allSatisfy { $0["t"] != nil && $0["kind"] != nil && $0["actor"] != nil }
    }

    /// A result carrying `effects`: its other members as `key: value` lines, then the effects.
    static func lines(forResult members: [String: JSONValue], effects: [JSONValue]) -> [String] {
        var others = members
        others["effects"] = nil
        let head = GenericView.objectLines(others)
        if effects.isEmpty { return head + ["effects: (none)"] }
        return head + ["effects:"] + lines(forEvents: effects).map { "  " + $0 }
    }

    /// `trace.get`'s array of trace events; anything else falls back to ``GenericView``.
    static func lines(forTrace value: JSONValue) -> [String] {
        guard case .array(let events) = value, !events.isEmpty else { return GenericView.lines(for: value) }
        return lines(forEvents: events, columns: traceColumns)
    }

    static func lines(forEvents events: [JSONValue], columns: [String] = effectColumns) -> [String] {
        let rows: [[String]] = events.map { event in
            guard case .object(let members) = event else { return [PlainText.scalar(event)] }
            let fields = members.keys.sorted()
                .filter { $0 != "time" && !columns.contains($0) }
                .map { "\($0)=\(fieldText(members[$0] ?? .null))" }
            return columns.map { members[$0].map(PlainText.scalar) ?? "-" } + [fields.joined(separator: " ")]
        }
        let widths = columns.indices.map { column in rows.map { $0.count > column ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            guard row.count == columns.count + 1 else { return row.joined() }
            let cells = columns.indices.map { index in
                let text = row[index]
                let padding = String(repeating: " ", count: widths[index] - text.count)
                if numberColumns.contains(columns[index]) { return padding + text }
                return index == columns.count - 1 && row[columns.count].isEmpty ? text : text + padding
            }
            return (row[columns.count].isEmpty ? cells : cells + [row[columns.count]]).joined(separator: "  ")
        }
    }

    private static func fieldText(_ value: JSONValue) -> String {
        if case .string(let text) = value, text.isEmpty || text.contains(where: \.isWhitespace) {
            return PlainText.compact(value)
        }
        return PlainText.scalar(value)
    }
}
