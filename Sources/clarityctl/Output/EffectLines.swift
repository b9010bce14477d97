import ControlProtocol

/// Effects and trace events, one per line: `t  kind  actor  field=value …` with the first three
/// columns aligned. `time` is left out (it repeats `t`); string values are unquoted unless they
/// hold spaces.
enum EffectLines {
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
        return lines(forEvents: events)
    }

    static func lines(forEvents events: [JSONValue]) -> [String] {
        let rows: [[String]] = events.map { event in
            guard case .object(let members) = event else { return [PlainText.scalar(event)] }
            let fields = members.keys.sorted()
                .filter { !["t", "time", "kind", "actor"].contains($0) }
                .map { "\($0)=\(fieldText(members[$0] ?? .null))" }
            return [
                members["t"].map(PlainText.scalar) ?? "-", members["kind"].map(PlainText.scalar) ?? "-",
                members["actor"].map(PlainText.scalar) ?? "-", fields.joined(separator: " "),
            ]
        }
        let widths = (0..<3).map { column in rows.map { $0.count > column ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            guard row.count == 4 else { return row.joined() }
            let t = String(repeating: " ", count: widths[0] - row[0].count) + row[0]
            let kind = PlainText.padded(row[1], to: widths[1])
            if row[3].isEmpty { return [t, kind, row[2]].joined(separator: "  ") }
            return [t, kind, PlainText.padded(row[2], to: widths[2]), row[3]].joined(separator: "  ")
        }
    }

    private static func fieldText(_ value: JSONValue) -> String {
        if case .string(let text) = value, text.isEmpty || text.contains(where: \.isWhitespace) {
            return PlainText.compact(value)
        }
        return PlainText.scalar(value)
    }
}
