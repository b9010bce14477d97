import ControlProtocol

/// `activity.list`, narrow enough for a terminal: a line per activity (name, phase, current or
/// next interval, whether it repeats), then a line per event with its usage so far against its
/// threshold; `--json` has the schedules and events in full.
///
/// ```
/// name              phase   interval                                   repeats
/// clarity_friction  active  2026-01-05T00:00:00Z–2026-01-05T23:59:59Z  true
///   friction_layer_1  120/300s
///   friction_layer_2  120/600s
/// ```
enum ActivitiesView {
    private static let columns = ["name", "phase", "interval", "repeats"]

    static func lines(for result: JSONValue) -> [String] {
        guard case .array(let items) = result, !items.isEmpty else { return GenericView.lines(for: result) }
        let activities = items.compactMap(\.objectValue)
        guard activities.count == items.count else { return GenericView.lines(for: result) }
        let rows = activities.map { activity -> [String: JSONValue] in
            [
                "name": activity["name"] ?? .null,
                "phase": activity["phase"] ?? .null,
                "interval": .string(intervalText(activity)),
                "repeats": activity["schedule"]?["repeats"] ?? .null,
            ]
        }
        let table = TextTable.lines(rows, leadingColumns: columns)
        guard table.count == activities.count + 1 else { return table }
        var lines = [table[0]]
        for (row, activity) in zip(table.dropFirst(), activities) {
            lines.append(row)
            lines += eventLines(activity).map { "  " + $0 }
        }
        return lines
    }

    /// `start–end` as the daemon wrote them, `-` when there is no interval.
    private static func intervalText(_ activity: [String: JSONValue]) -> String {
        guard let start = activity["intervalStart"]?.stringValue, let end = activity["intervalEnd"]?.stringValue else {
            return "-"
        }
        return "\(start)–\(end)"
    }

    /// `name  used/thresholds` per event, by name, names aligned: `friction_layer_1  120/300s`.
    private static func eventLines(_ activity: [String: JSONValue]) -> [String] {
        let events = activity["events"]?.objectValue ?? [:]
        let progress = activity["progress"]?.objectValue ?? [:]
        let width = events.keys.map(\.count).max() ?? 0
        return events.keys.sorted().map { name in
            let used = PlainText.scalar(progress[name] ?? 0)
            let threshold = events[name]?["threshold"].map(durationSeconds).map(String.init) ?? "?"
            return PlainText.padded(name, to: width) + "  \(used)/\(threshold)s"
        }
    }

    /// A threshold's DateComponents read as a duration, as the daemon reads it: days, hours,
    /// minutes and seconds.
    private static func durationSeconds(_ components: JSONValue) -> Int {
        let units = ["day": 86_400, "hour": 3_600, "minute": 60, "second": 1]
        return units.reduce(0) { total, unit in total + (components[unit.key]?.intValue ?? 0) * unit.value }
    }
}
