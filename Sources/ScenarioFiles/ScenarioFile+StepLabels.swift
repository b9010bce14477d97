import JSONValues

extension ScenarioFile {
    /// The longest step label; a longer one is cut, ending in `…`.
    static let labelLimit = 96

    /// Each step of the scenario `document`, short, as clarityctl's commands would say it
    /// (`advance 600`, `event app.open app=com.burbn.instagram`, `intent selectApps
    /// apps=["com.burbn.instagram"]`, `parallel: 2 branches`), its other members as compact JSON,
    /// cut to ``labelLimit``, by path (`steps[3]`, `steps[9].parallel[1][0]`): a report's step
    /// labels.
    public static func stepLabels(of document: JSONValue?) -> [String: String] {
        var labels: [String: String] = [:]
        for (index, step) in (document?["steps"]?.arrayValue ?? []).enumerated() {
            labels["steps[\(index)]"] = label(step)
            for (branch, steps) in (step["parallel"]?.arrayValue ?? []).enumerated() {
                for (position, inner) in (steps.arrayValue ?? []).enumerated() {
                    labels["steps[\(index)].parallel[\(branch)][\(position)]"] = label(inner)
                }
            }
        }
        return labels
    }

    private static func label(_ step: JSONValue) -> String {
        let text = words(step)
        return text.count <= labelLimit ? text : String(text.prefix(labelLimit - 1)) + "…"
    }

    /// `kind head k=v …`: the step's kind, its event type or intent name, then its fields.
    private static func words(_ step: JSONValue) -> String {
        guard let members = step.objectValue, let (kind, body) = members.min(by: { $0.key < $1.key }), members.count == 1
        else { return compact(step) }
        switch kind {
        case "advance":
            return "advance \(compact(body))"
        case "parallel":
            let branches = body.arrayValue?.count ?? 0
            return "parallel: \(branches) branch\(branches == 1 ? "" : "es")"
        case "event", "intent":
            let head = kind == "event" ? "type" : "name"
            var fields = body.objectValue ?? [:]
            let name = fields.removeValue(forKey: head)?.stringValue
            if kind == "intent", let arguments = fields.removeValue(forKey: "args")?.objectValue {
                fields.merge(arguments) { own, _ in own }
            }
            let pairs = fields.sorted { $0.key < $1.key }.map { "\($0.key)=\(text($0.value))" }
            return ([kind] + (name.map { [$0] } ?? []) + pairs).joined(separator: " ")
        default:
            return "\(kind) \(compact(body))"
        }
    }

    /// A field's value: a string as it is, anything else as compact JSON.
    private static func text(_ value: JSONValue) -> String {
        value.stringValue ?? compact(value)
    }

    private static func compact(_ value: JSONValue) -> String {
        (try? JSONWire.encodeString(value)) ?? "?"
    }
}
