import ControlProtocol

/// Human output for any result: a table for an array of objects, `key: value` lines for an
/// object (nested objects indented, nested arrays of objects as indented tables), effect lines
/// for effects and trace events, the plain value otherwise.
enum GenericView {
    static func lines(for value: JSONValue) -> [String] {
        switch value {
        case .object(let members):
            if case .array(let effects)? = members["effects"] {
                return EffectLines.lines(forResult: members, effects: effects)
            }
            return objectLines(members)
        case .array(let items):
            return arrayLines(items)
        default:
            return [PlainText.scalar(value)]
        }
    }

    /// `key: value` lines with the values aligned, then one indented block per nested object or
    /// array of objects.
    static func objectLines(_ members: [String: JSONValue], indent: String = "") -> [String] {
        let keys = PlainText.ordered(members.keys)
        let inlineKeys = keys.filter { !opensBlock(members[$0] ?? .null) }
        let width = (inlineKeys.map(\.count).max() ?? 0) + 1
        var lines = inlineKeys.map { key in
            indent + PlainText.padded(key + ":", to: width) + " " + PlainText.inline(members[key] ?? .null)
        }
        for key in keys where opensBlock(members[key] ?? .null) {
            lines.append(indent + key + ":")
            switch members[key] {
            case .object(let nested)?: lines += objectLines(nested, indent: indent + "  ")
            case .array(let items)?: lines += arrayLines(items).map { indent + "  " + $0 }
            default: break
            }
        }
        return lines
    }

    /// A non-empty object, or a non-empty array of objects: shown as an indented block.
    private static func opensBlock(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let members): !members.isEmpty
        case .array(let items): !items.isEmpty && items.allSatisfy { $0.objectValue != nil }
        default: false
        }
    }

    /// A table of objects (effect lines when they are effects), else one value per line.
    static func arrayLines(_ items: [JSONValue]) -> [String] {
        if items.isEmpty { return ["(none)"] }
        let objects = items.compactMap(\.objectValue)
        guard objects.count == items.count else { return items.map(PlainText.scalar) }
        if EffectLines.areEffects(objects) { return EffectLines.lines(forEvents: items) }
        return TextTable.lines(objects)
    }
}
