/// Builds an SVG document element by element, escaping every text and attribute.
struct SVGWriter {
    let width: Int
    let height: Int
    private var body = ""

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    func document() -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\""
            + " font-family=\"-apple-system, 'Helvetica Neue', 'DejaVu Sans', sans-serif\">" + body + "</svg>"
    }

    mutating func rect(x: Int, y: Int, width: Int, height: Int, fill: String, rx: Int = 0, opacity: Double = 1) {
        body += "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(width)\" height=\"\(height)\" rx=\"\(rx)\" fill=\"\(Self.escape(fill))\""
        if opacity < 1 { body += " opacity=\"\(opacity)\"" }
        body += "/>"
    }

    mutating func text(
        _ text: String, x: Int, y: Int, size: Int, weight: String = "400", fill: String, anchor: String = "start",
        opacity: Double = 1, part: String? = nil
    ) {
        body += "<text x=\"\(x)\" y=\"\(y)\" font-size=\"\(size)\" font-weight=\"\(weight)\" fill=\"\(Self.escape(fill))\""
        body += " text-anchor=\"\(anchor)\""
        if opacity < 1 { body += " opacity=\"\(opacity)\"" }
        if let part { body += " data-part=\"\(part)\"" }
        body += ">" + Self.escape(text) + "</text>"
    }

    /// `text` wrapped at about `width` characters a line, centred on `x`.
    mutating func paragraph(_ text: String, x: Int, y: Int, size: Int, width: Int, fill: String, part: String) {
        body += "<text font-size=\"\(size)\" fill=\"\(Self.escape(fill))\" text-anchor=\"middle\" data-part=\"\(part)\">"
        for (index, line) in Self.lines(of: text, width: width).enumerated() {
            body += "<tspan x=\"\(x)\" y=\"\(y + index * (size + 6))\">" + Self.escape(line) + "</tspan>"
        }
        body += "</text>"
    }

    mutating func group(part: String, attributes: [String: String], _ content: (inout SVGWriter) -> Void) {
        body += "<g data-part=\"\(part)\""
        for (name, value) in attributes.sorted(by: { $0.key < $1.key }) { body += " \(name)=\"\(Self.escape(value))\"" }
        body += ">"
        content(&self)
        body += "</g>"
    }

    /// Greedy word wrap.
    static func lines(of text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = String(word)
            } else {
                line += line.isEmpty ? String(word) : " " + word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    static func clipped(_ text: String, to count: Int) -> String {
        text.count <= count ? text : String(text.prefix(count - 1)) + "…"
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}
