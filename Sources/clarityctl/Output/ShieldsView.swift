import ControlProtocol

/// `shields.get`: one table row for the effective shield and one per named ManagedSettingsStore.
///
/// ```
/// store        applications                   categories
/// (effective)  com.burbn.instagram, com.zhiliaoapp.musically (none)
/// friction     com.burbn.instagram              (none)
/// ```
enum ShieldsView {
    static func lines(for result: JSONValue) -> [String] {
        guard case .object(let effective)? = result["effective"] else { return GenericView.lines(for: result) }
        var rows = [effective.merging(["store": "(effective)"]) { _, name in name }]
        for (name, store) in (result["stores"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            rows.append((store.objectValue ?? ["value": store]).merging(["store": .string(name)]) { _, name in name })
        }
        return TextTable.lines(rows, leadingColumns: ["store", "applications", "categories"], cell: PlainText.inline)
    }
}
