import ControlProtocol

/// `notifications.list`: one line per notification, `t  source  title: body`, `t` and `source` aligned.
enum NotificationsView {
    static func lines(for result: JSONValue) -> [String] {
        guard case .array(let items) = result, !items.isEmpty else { return GenericView.lines(for: result) }
        let notifications = items.compactMap(\.objectValue)
        guard notifications.count == items.count else { return GenericView.lines(for: result) }
        let times = notifications.map { $0["t"].map(PlainText.scalar) ?? "-" }
        let sources = notifications.map { $0["source"].map(PlainText.scalar) ?? "-" }
        let timeWidth = times.map(\.count).max() ?? 0
        let sourceWidth = sources.map(\.count).max() ?? 0
        return notifications.indices.map { index in
            let notification = notifications[index]
            let t = String(repeating: " ", count: timeWidth - times[index].count) + times[index]
            let title = notification["title"].map(PlainText.scalar) ?? ""
            let body = notification["body"].map(PlainText.scalar) ?? ""
            let text = body.isEmpty ? title : title.isEmpty ? body : "\(title): \(body)"
            return "\(t)  \(PlainText.padded(sources[index], to: sourceWidth))  \(text)"
        }
    }
}
