import ControlProtocol

/// `device.state`: the generic `key: value` lines; on a device with several apps (`apps` in the
/// result), each app's own state as its own block of nested `key: value` lines, the primary
/// first and marked, instead of a table whose `state` cell is one long line of JSON. The
/// primary's state is shown there once (the result's `app` repeats it).
///
/// ```
/// appName:  dailylimit
/// …
/// apps:
///   dailylimit (primary; com.example.dailylimit, group.com.example.dailylimit):
///     requestsToday:  0
///     …
///   other (com.example.other, group.com.example.other):
///     …
/// ```
enum DeviceStateView {
    static func lines(for result: JSONValue) -> [String] {
        guard case .object(var members) = result, case .array(let items)? = members["apps"], !items.isEmpty else {
            return GenericView.lines(for: result)
        }
        let apps = items.compactMap(\.objectValue)
        guard apps.count == items.count, apps.allSatisfy({ $0["name"]?.stringValue != nil }) else {
            return GenericView.lines(for: result)
        }
        members["apps"] = nil
        members["app"] = nil
        var lines = GenericView.objectLines(members) + ["apps:"]
        for (index, app) in apps.enumerated() {
            let names = [app["bundleIdentifier"], app["appGroup"]].compactMap { $0?.stringValue }.joined(separator: ", ")
            let facts = (index == 0 ? ["primary"] : []) + (names.isEmpty ? [] : [names])
            let heading = PlainText.scalar(app["name"] ?? .null) + (facts.isEmpty ? "" : " (\(facts.joined(separator: "; ")))")
            switch app["state"] {
            case .object(let state)? where !state.isEmpty:
                lines.append("  \(heading):")
                lines += GenericView.objectLines(state, indent: "    ")
            case let state:
                lines.append("  \(heading): " + PlainText.inline(state ?? .null))
            }
        }
        return lines
    }
}
