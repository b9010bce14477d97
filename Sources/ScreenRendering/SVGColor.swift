/// The colours and symbols a shield configuration names, as SVG can draw them: `#RRGGBB` as is,
/// UIKit's system colour names by their light-mode values (``SVGSymbol`` draws the icons).
enum SVGColor {
    static let system: [String: String] = [
        "systemRed": "#FF3B30", "systemOrange": "#FF9500", "systemYellow": "#FFCC00", "systemGreen": "#34C759",
        "systemMint": "#00C7BE", "systemTeal": "#30B0C7", "systemCyan": "#32ADE6", "systemBlue": "#007AFF",
        "systemIndigo": "#5856D6", "systemPurple": "#AF52DE", "systemPink": "#FF2D55", "systemBrown": "#A2845E",
        "systemGray": "#8E8E93", "label": "#000000", "secondaryLabel": "#3C3C43", "white": "#FFFFFF",
        "black": "#000000", "clear": "none", "systemBackground": "#FFFFFF", "darkGray": "#555555",
        "lightGray": "#AAAAAA", "gray": "#808080", "red": "#FF0000", "green": "#00FF00", "blue": "#0000FF",
        "orange": "#FF8000", "yellow": "#FFFF00", "purple": "#800080", "brown": "#996633",
        "systemGray6": "#F2F2F7", "secondarySystemBackground": "#F2F2F7", "tertiaryLabel": "#3C3C4399",
    ]

    /// A named colour as SVG paints it; `fallback` when the app named none.
    static func resolve(_ name: String?, default fallback: String) -> String {
        guard let name, !name.isEmpty else { return fallback }
        if name.hasPrefix("#") { return isHex(name) ? name : fallback }
        return system[name] ?? fallback
    }

    /// `#RGB`, `#RRGGBB` or `#RRGGBBAA`: what SVG can paint as given (anything else an app
    /// names falls back to the system's colour, never into the drawing).
    static func isHex(_ name: String) -> Bool {
        [4, 7, 9].contains(name.count) && name.dropFirst().allSatisfy(\.isHexDigit)
    }

    /// Whether dark text reads on this background.
    static func isLight(_ name: String?) -> Bool {
        let hex = resolve(name, default: "#F2F2F7")
        guard hex.hasPrefix("#"), hex.count == 7, let value = Int(hex.dropFirst(), radix: 16) else { return true }
        let (r, g, b) = ((value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF)
        return r * 299 + g * 587 + b * 114 > 128_000
    }

    /// A stable colour for an app's icon, from its bundle id.
    static func iconColor(_ bundle: String) -> String {
        let palette = ["#E1306C", "#000000", "#1DA1F2", "#1877F2", "#FF4500", "#FFFC00", "#FF0000", "#E50914",
            "#FF9900", "#34C759", "#5856D6", "#007AFF", "#FF9500", "#30B0C7"]
        var hash: UInt32 = 2_166_136_261
        for byte in bundle.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return palette[Int(hash % UInt32(palette.count))]
    }
}
