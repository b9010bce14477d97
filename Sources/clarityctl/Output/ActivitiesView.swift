import ControlProtocol

/// `activity.list`: one line per activity, its name, phase, current (or next) interval, whether
/// it repeats, and each event with its usage so far against its threshold; `--json` has the
/// schedules and events in full.
///
/// ```
/// name              phase   interval                                   repeats  events
/// clarity_friction  active  2026-01-05T00:00:00Z–2026-01-05T23:59:59Z  true     friction_layer_1 120/300s, …
/// ```
enum ActivitiesView {
    private static let columns = ["name", "phase", "interval", "repeats", "events"]

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
                "events": .string(eventsText(activity)),
            ]
        }
        return TextTable.lines(rows, leadingColumns: columns)
    }

    /// `start–end` as the daemon wrote them, `-` when there is no interval.
    private static func intervalText(_ activity: [String: JSONValue]) -> String {
        guard let start = activity["intervalStart"]?.stringValue, let end = activity["intervalEnd"]?.stringValue else {
            return "-"
        }
        return "\(start)–\(end)"
    }

    /// `name progress/thresholds` per event, by name: `friction_layer_1 120/300s, friction_layer_2 120/600s`.
    private static func eventsText(_ activity: [String: JSONValue]) -> String {
        let events = activity["events"]?.objectValue ?? [:]
        if events.isEmpty { return "(none)" }
        let progress = activity["progress"]?.objectValue ?? [:]
        return events.keys.sorted().map { name in
            let used = PlainText.scalar(progress[name] ?? 0)
            let threshold = events[name]?["threshold"].map(durationSeconds).map(String.init) ?? "?"
            return "\(name) \(used)/\(threshold)s"
        }.joined(separator: ", ")
    }

    /// A threshold's DateComponents read as a duration, as the daemon reads it: days, hours,
    /// minutes and seconds.
    private static func durationSeconds(_ components: JSONValue) -> Int {
        let units = ["day": 86_400, "hour": 3_600, "minute": 60, "second": 1]
        return units.reduce(0) { total, unit in total + (components[unit.key]?.intValue ?? 0) * unit.value }
    }
}
