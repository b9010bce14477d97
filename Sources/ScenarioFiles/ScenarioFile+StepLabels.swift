import JSONValues

extension ScenarioFile {
    /// The longest step label; a longer one is cut, ending in `…`.
    static let labelLimit = 96

    /// Each step of the scenario `document` as the file says it, short: its compact JSON
    /// (`{"advance":600}`, `{"event":{"type":"app.open","app":"com.burbn.instagram"}}`), cut to
    /// ``labelLimit``, by path (`steps[3]`, `steps[9].parallel[1][0]`): a report's step labels.
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
        let text = (try? JSONWire.encodeString(step)) ?? "?"
        return text.count <= labelLimit ? text : String(text.prefix(labelLimit - 1)) + "…"
    }
}
