import ControlProtocol

/// `shields.get`: one table row for the effective shield and one per named ManagedSettingsStore.
///
/// ```
/// store        applications                   categories
/// (effective)  com.burbn.instagram, com.zhiliaoapp.musically (none)
/// friction     com.burbn.instagram              (none)
/// ```
///
/// With several apps on the device (`apps` in the result) the stores are grouped by app, an
/// `app` column first, every installed app shown (`(none)` for one whose stores hold nothing):
///
/// ```
/// app         store        applications         categories  applicationCategories
/// -           (effective)  com.amazon.Amazon, … (none)      -
/// dailylimit  limit        com.burbn.instagram  -           {"policy":"none"}
/// other       shopping     com.amazon.Amazon    -           {"policy":"none"}
/// ```
enum ShieldsView {
    static func lines(for result: JSONValue) -> [String] {
        guard case .object(let effective)? = result["effective"] else { return GenericView.lines(for: result) }
        var rows = [effective.merging(["store": "(effective)"]) { _, name in name }]
        guard case .object(let apps)? = result["apps"] else {
            rows += storeRows(result["stores"])
            return TextTable.lines(rows, leadingColumns: ["store", "applications", "categories"], cell: PlainText.inline)
        }
        for (app, stores) in apps.sorted(by: { $0.key < $1.key }) {
            let storeRows = storeRows(stores)
            rows += (storeRows.isEmpty ? [["store": "(none)"]] : storeRows).map { row in
                row.merging(["app": .string(app)]) { _, app in app }
            }
        }
        return TextTable.lines(rows, leadingColumns: ["app", "store", "applications", "categories"], cell: PlainText.inline)
    }

    /// A row per named store, by name, its name in `store`.
    private static func storeRows(_ stores: JSONValue?) -> [[String: JSONValue]] {
        (stores?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }).map { name, store in
            (store.objectValue ?? ["value": store]).merging(["store": .string(name)]) { _, name in name }
        }
    }
}
