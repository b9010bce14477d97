/// HTML being written: text and attribute values escaped, nothing else added, so the same
/// calls give the same bytes.
struct HTMLText {
    private(set) var text = ""

    /// Escapes `&`, `<`, `>` and quotes: safe as text and inside a double-quoted attribute.
    static func escaped(_ raw: String) -> String {
        var out = ""
        out.reserveCapacity(raw.utf8.count)
        for character in raw {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// Markup written as is.
    mutating func raw(_ markup: String) {
        text += markup
    }

    /// Text, escaped.
    mutating func text(_ raw: String) {
        text += Self.escaped(raw)
    }

    /// `<tag a="v"…>`, then `body`, then `</tag>`; attributes in the order given, nil ones left out.
    mutating func element(
        _ tag: String, _ attributes: KeyValuePairs<String, String?> = [:], _ body: (inout HTMLText) -> Void = { _ in }
    ) {
        open(tag, attributes)
        body(&self)
        text += "</\(tag)>"
    }

    /// `<tag …>text</tag>`.
    mutating func element(_ tag: String, _ attributes: KeyValuePairs<String, String?> = [:], text content: String) {
        element(tag, attributes) { $0.text(content) }
    }

    mutating func open(_ tag: String, _ attributes: KeyValuePairs<String, String?>) {
        text += "<\(tag)"
        for (name, value) in attributes {
            guard let value else { continue }
            text += value.isEmpty && name == "hidden" ? " hidden" : " \(name)=\"\(Self.escaped(value))\""
        }
        text += ">"
    }
}
