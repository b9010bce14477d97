import ControlProtocol

/// An aligned plain-text table of JSON objects: one column per key (the union over all rows, in
/// ``PlainText/ordered(_:)`` order unless `columns` leads), a header row of the keys.
enum TextTable {
    static func lines(
        _ rows: [[String: JSONValue]], leadingColumns: [String] = [],
        cell: (JSONValue) -> String = PlainText.cell
    ) -> [String] {
        let allKeys = Set(rows.flatMap(\.keys))
        let leading = leadingColumns.filter(allKeys.contains)
        let columns = leading + PlainText.ordered(allKeys.subtracting(leading))
        let cells = rows.map { row in columns.map { row[$0].map(cell) ?? "-" } }
        let widths = columns.indices.map { index in
            max(columns[index].count, cells.map { $0[index].count }.max() ?? 0)
        }
        return ([columns] + cells).map { texts in
            texts.indices.map { index in
                index == texts.count - 1 ? texts[index] : PlainText.padded(texts[index], to: widths[index])
            }.joined(separator: "  ")
        }
    }
}
