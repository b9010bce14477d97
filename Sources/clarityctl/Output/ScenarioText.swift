import ControlProtocol

/// A scenario as a file people read and edit, laid out as config/scenarios' files are: its
/// members one a line in the order docs/scenarios.md lists them (others after them, by name),
/// `steps` last, one step a line.
enum ScenarioText {
    private static let leadingMembers = [
        "name", "app", "start", "timezone", "seed", "config", "failOnRace", "builtInInvariants", "expectFailure",
        "invariants",
    ]

    static func text(of scenario: JSONValue) -> String {
        let members = scenario.objectValue ?? [:]
        let others = members.keys.filter { !leadingMembers.contains($0) && $0 != "steps" }.sorted()
        var lines = (leadingMembers + others).compactMap { key in
            members[key].map { "  \(PlainText.compact(.string(key))): \(PlainText.compact($0))" }
        }
        if let steps = members["steps"]?.arrayValue {
            let items = steps.map { "    " + PlainText.compact($0) }.joined(separator: ",\n")
            lines.append(steps.isEmpty ? "  \"steps\": []" : "  \"steps\": [\n\(items)\n  ]")
        }
        return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
    }
}
