import ControlProtocol

/// How single JSON values read in human output.
enum PlainText {
    /// Keys shown first, in this order, in tables and `key: value` lines; the rest follow alphabetically.
    private static let leadingKeys = [
        "name", "device", "id", "t", "time", "type", "kind", "actor", "extension", "app", "state", "status",
        "title", "subtitle", "source", "body", "version", "pid",
    ]

    static func ordered<S: Sequence>(_ keys: S) -> [String] where S.Element == String {
        keys.sorted { left, right in
            let leftRank = leadingKeys.firstIndex(of: left) ?? leadingKeys.count
            let rightRank = leadingKeys.firstIndex(of: right) ?? leadingKeys.count
            return leftRank != rightRank ? leftRank < rightRank : left < right
        }
    }

    /// Strings without quotes, whole doubles without `.0`, containers as compact JSON.
    static func scalar(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): String(flag)
        case .int(let number): String(number)
        case .double(let number):
            number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
        case .string(let text): text
        case .array, .object: compact(value)
        }
    }

    /// One-line JSON with sorted keys.
    static func compact(_ value: JSONValue) -> String {
        (try? JSONWire.encodeString(value)) ?? "?"
    }

    /// A value inside a line: arrays of scalars as `a, b`, an empty array as `(none)`.
    static func inline(_ value: JSONValue) -> String {
        guard case .array(let items) = value else { return scalar(value) }
        if items.isEmpty { return "(none)" }
        guard items.allSatisfy(\.isScalar) else { return compact(value) }
        return items.map(scalar).joined(separator: ", ")
    }

    /// A table cell: `-` for null, otherwise ``scalar(_:)``.
    static func cell(_ value: JSONValue) -> String {
        value == .null ? "-" : scalar(value)
    }

    /// `1 event`, `2 events`.
    static func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }

    /// `12,340`: digits in groups of three, for counts a person reads (not for numbers to paste).
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number.magnitude))
        var text = number < 0 ? "-" : ""
        for (position, digit) in digits.enumerated() {
            if position > 0, (digits.count - position) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }

    /// `text` padded with spaces to `width` characters.
    static func padded(_ text: String, to width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// A byte count as `512 B`, `12.5 KiB` or `6.0 MiB`.
    static func bytes(_ count: Double) -> String {
        if count < 1024 { return "\(Int(count)) B" }
        if count < 1024 * 1024 { return String(format: "%.1f KiB", count / 1024) }
        return String(format: "%.1f MiB", count / (1024 * 1024))
    }
}

extension JSONValue {
    /// Neither an array nor an object.
    var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }
}
