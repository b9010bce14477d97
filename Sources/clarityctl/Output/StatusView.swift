import ControlProtocol

/// `daemon.status`: the generic `key: value` lines with `uptime` as `1h 2m 3s`, without
/// `connection` — the number of the connection that asked, which `status` closes at once: next
/// to `scenarios.explorations`, whose connections `clarityctl cancel` takes, it would mislead.
enum StatusView {
    static func lines(for result: JSONValue) -> [String] {
        guard case .object(var members) = result else { return GenericView.lines(for: result) }
        members["connection"] = nil
        if let seconds = members["uptime"]?.doubleValue {
            members["uptime"] = .string(uptimeText(seconds))
        }
        return GenericView.objectLines(members)
    }

    static func uptimeText(_ seconds: Double) -> String {
        let whole = Int(seconds)
        let parts = [(whole / 86_400, "d"), (whole % 86_400 / 3_600, "h"), (whole % 3_600 / 60, "m")]
            .drop { $0.0 == 0 }
            .map { "\($0.0)\($0.1)" }
        return (parts + ["\(whole % 60)s"]).joined(separator: " ")
    }
}
