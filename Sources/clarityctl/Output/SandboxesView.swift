import ControlProtocol

/// `sandbox.list`: a table of the extension sandboxes with byte counts as KiB/MiB.
enum SandboxesView {
    static func lines(for result: JSONValue) -> [String] {
        guard case .array(let items) = result, !items.isEmpty else { return GenericView.lines(for: result) }
        let sandboxes = items.compactMap(\.objectValue)
        guard sandboxes.count == items.count else { return GenericView.lines(for: result) }
        let rows = sandboxes.map { sandbox in
            sandbox.mapValuesWithKeys { key, value in
                guard key.hasSuffix("Bytes"), let count = value.doubleValue else { return value }
                return .string(PlainText.bytes(count))
            }
        }
        return TextTable.lines(
            rows, leadingColumns: ["extension", "state", "budgetBytes", "peakBytes", "launches", "jetsams"])
    }
}

extension Dictionary {
    fileprivate func mapValuesWithKeys(_ transform: (Key, Value) -> Value) -> [Key: Value] {
        Dictionary(uniqueKeysWithValues: map { ($0.key, transform($0.key, $0.value)) })
    }
}
