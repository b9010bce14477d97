import ControlProtocol

/// `shield.config`: title, subtitle and the buttons as `[Primary]  [Secondary]`, then any other
/// members of the ShieldConfiguration.
enum ShieldConfigView {
    private static let buttonKeys = ["primaryButtonLabel", "secondaryButtonLabel"]

    static func lines(for result: JSONValue) -> [String] {
        guard case .object(var members) = result else { return GenericView.lines(for: result) }
        let buttons = buttonKeys.compactMap { members[$0]?.stringValue }.map { "[\($0)]" }
        let lines = [
            "title:    " + (members["title"].map(PlainText.cell) ?? "-"),
            "subtitle: " + (members["subtitle"].map(PlainText.cell) ?? "-"),
            "buttons:  " + (buttons.isEmpty ? "(none)" : buttons.joined(separator: "  ")),
        ]
        for key in ["title", "subtitle"] + buttonKeys { members[key] = nil }
        return lines + GenericView.objectLines(members)
    }
}
