/// Builds an SVG document element by element, escaping every text and attribute, and keeping
/// what it writes inside the screen: texts wrap or are clipped with `…` (``lines(of:width:)``).
struct SVGWriter {
    let width: Int
    let height: Int
    private var defs = ""
    private var body = ""

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    func document() -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\""
            + " font-family=\"-apple-system, Roboto, 'Helvetica Neue', 'DejaVu Sans', sans-serif\">"
            + (defs.isEmpty ? "" : "<defs>" + defs + "</defs>") + body + "</svg>"
    }

    /// A Gaussian blur filter, for `filter="url(#id)"`.
    mutating func blurFilter(id: String, deviation: Int) {
        defs += "<filter id=\"\(id)\" x=\"-10%\" y=\"-10%\" width=\"120%\" height=\"120%\">"
            + "<feGaussianBlur stdDeviation=\"\(deviation)\"/></filter>"
    }

    /// A clip path of the screen's rounded outline, for `clip-path="url(#id)"`.
    mutating func roundedClip(id: String, radius: Int) {
        defs += "<clipPath id=\"\(id)\"><rect x=\"0\" y=\"0\" width=\"\(width)\" height=\"\(height)\" rx=\"\(radius)\"/></clipPath>"
    }

    mutating func rect(
        x: Int, y: Int, width: Int, height: Int, fill: String, rx: Int = 0, opacity: Double = 1, stroke: String? = nil,
        part: String? = nil
    ) {
        body += "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(width)\" height=\"\(height)\" rx=\"\(rx)\" fill=\"\(Self.escape(fill))\""
        if let stroke { body += " stroke=\"\(Self.escape(stroke))\"" }
        finish(opacity: opacity, part: part)
    }

    mutating func circle(cx: Int, cy: Int, r: Int, fill: String, opacity: Double = 1, stroke: String? = nil) {
        body += "<circle cx=\"\(cx)\" cy=\"\(cy)\" r=\"\(r)\" fill=\"\(Self.escape(fill))\""
        if let stroke { body += " stroke=\"\(Self.escape(stroke))\" stroke-width=\"2\"" }
        finish(opacity: opacity, part: nil)
    }

    /// A path in a 0…1 box, placed at (`x`, `y`) and scaled to `size`: icons drawn as shapes, so
    /// that they show without an emoji font.
    mutating func shape(_ path: String, x: Int, y: Int, size: Int, fill: String, opacity: Double = 1, part: String? = nil) {
        body += "<path transform=\"translate(\(x) \(y)) scale(\(size))\" d=\"\(path)\" fill-rule=\"evenodd\" fill=\"\(Self.escape(fill))\""
        finish(opacity: opacity, part: part)
    }

    private mutating func finish(opacity: Double, part: String?) {
        if opacity < 1 { body += " opacity=\"\(opacity)\"" }
        if let part { body += " data-part=\"\(part)\"" }
        body += "/>"
    }

    /// One line of text; with `width`, clipped to that many points (``clipped(_:size:weight:width:)``).
    mutating func text(
        _ text: String, x: Int, y: Int, size: Int, weight: String = "400", fill: String, anchor: String = "start",
        opacity: Double = 1, width: Int? = nil, part: String? = nil
    ) {
        let text = width.map { Self.clipped(text, size: size, weight: weight, width: $0) } ?? text
        body += "<text x=\"\(x)\" y=\"\(y)\" font-size=\"\(size)\" font-weight=\"\(weight)\" fill=\"\(Self.escape(fill))\""
        body += " text-anchor=\"\(anchor)\""
        if opacity < 1 { body += " opacity=\"\(opacity)\"" }
        if let part { body += " data-part=\"\(part)\"" }
        body += ">" + Self.escape(text) + "</text>"
    }

    /// `text` wrapped to lines at most `width` points wide, at most `maxLines` of them (the last
    /// clipped with `…`), the first at `y`, anchored on `x`.
    mutating func paragraph(
        _ text: String, x: Int, y: Int, size: Int, width: Int, maxLines: Int, weight: String = "400", fill: String,
        anchor: String = "middle", part: String
    ) {
        body += "<text font-size=\"\(size)\" font-weight=\"\(weight)\" fill=\"\(Self.escape(fill))\""
        body += " text-anchor=\"\(anchor)\" data-part=\"\(part)\">"
        for (index, line) in Self.lines(of: text, size: size, weight: weight, width: width, maxLines: maxLines).enumerated() {
            body += "<tspan x=\"\(x)\" y=\"\(y + index * (size + 6))\">" + Self.escape(line) + "</tspan>"
        }
        body += "</text>"
    }

    /// Elements grouped, with `data-part` (when given) and other attributes, in name order.
    mutating func group(part: String?, attributes: [String: String] = [:], _ content: (inout SVGWriter) -> Void) {
        body += "<g"
        if let part { body += " data-part=\"\(part)\"" }
        for (name, value) in attributes.sorted(by: { $0.key < $1.key }) { body += " \(name)=\"\(Self.escape(value))\"" }
        body += ">"
        content(&self)
        body += "</g>"
    }

    /// How wide `text` draws at `size` and `weight`, at most: each character by the widest
    /// advance of its class in DejaVu Sans (the widest font the document names, used where
    /// Helvetica and Roboto are missing) — Bold for weights of 600 and more (DejaVu has no
    /// semibold), Book below; any character beyond ASCII (CJK, emoji) a full em. So what is
    /// measured to fit does fit, without wrapping a line that has room.
    static func width(of text: some StringProtocol, size: Int, weight: String = "700") -> Double {
        let bold = (Int(weight) ?? 400) >= 600
        return text.reduce(0) { $0 + advance(of: $1, bold: bold) } * Double(size)
    }

    /// A character's advance in ems: its class's widest in DejaVu Sans Bold (`H` 0.837, `&`
    /// 0.872, `m` 1.042) or Book (`O` 0.787, `n` 0.634, `m` 0.974).
    private static func advance(of character: Character, bold: Bool) -> Double {
        guard character.isASCII else { return 1.05 }
        switch character {
        case " ": return bold ? 0.35 : 0.32
        case "W", "M", "m", "w", "@", "%": return bold ? 1.05 : 1.0
        case "i", "j", "l", "I", ".", ",", ":", ";", "'", "|", "/": return bold ? 0.4 : 0.34
        case "t", "f", "r", "!", "(", ")", "[", "]", "-": return bold ? 0.5 : 0.42
        case _ where character.isNumber: return bold ? 0.7 : 0.64
        case _ where character.isUppercase: return bold ? 0.86 : 0.8
        case _ where character.isLowercase: return bold ? 0.72 : 0.64
        default: return bold ? 0.88 : 0.84
        }
    }

    /// Greedy word wrap at `width` points; a word wider than a line is cut into lines. More than
    /// `maxLines` lines: the last kept one ends with `…`.
    static func lines(of text: String, size: Int, weight: String, width: Int, maxLines: Int = .max) -> [String] {
        let fits = { (line: String) in Self.width(of: line, size: size, weight: weight) <= Double(width) }
        var lines: [String] = []
        var line = ""
        for word in text.split(whereSeparator: \.isWhitespace) {
            let joined = line.isEmpty ? String(word) : line + " " + word
            if fits(joined) {
                line = joined
                continue
            }
            if !line.isEmpty { lines.append(line) }
            line = ""
            for character in word {
                if !line.isEmpty, !fits(line + String(character)) {
                    lines.append(line)
                    line = ""
                }
                line.append(character)
            }
        }
        if !line.isEmpty { lines.append(line) }
        guard lines.count > maxLines else { return lines }
        return Array(lines.prefix(maxLines - 1)) + [clipped(lines[maxLines - 1] + " …", size: size, weight: weight, width: width)]
    }

    /// `text` on one line at most `width` points wide, the rest cut off with `…`.
    static func clipped(_ text: String, size: Int, weight: String, width: Int) -> String {
        var line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        guard Self.width(of: line, size: size, weight: weight) > Double(width) else { return line }
        while !line.isEmpty, Self.width(of: line + "…", size: size, weight: weight) > Double(width) {
            line.removeLast()
        }
        return line + "…"
    }

    /// Text as XML character data or an attribute value: the five markup characters escaped,
    /// line breaks and tabs as spaces, and characters XML 1.0 cannot hold at all (other control
    /// characters, U+FFFE, U+FFFF) as U+FFFD.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n", "\r", "\t": out += " "
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
