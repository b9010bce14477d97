/// A span of virtual time written for humans: `90s`, `10m`, `1h30m`, `2d`, `1.5h`, or a bare
/// number of seconds. Units are `d`, `h`, `m` and `s`; each part is a decimal number and a unit.
enum AdvanceDuration {
    private static let unitSeconds: [Character: Double] = ["d": 86_400, "h": 3_600, "m": 60, "s": 1]

    /// The duration in seconds, or nil when `text` is not a positive duration.
    static func seconds(_ text: String) -> Double? {
        if let bare = Double(text) {
            return bare.isFinite && bare > 0 ? bare : nil
        }
        var total = 0.0
        var number = ""
        for character in text {
            if character.isASCII, character.isNumber || character == "." {
                number.append(character)
            } else if let unit = unitSeconds[character], let value = Double(number) {
                total += value * unit
                number = ""
            } else {
                return nil
            }
        }
        guard number.isEmpty, total.isFinite, total > 0 else { return nil }
        return total
    }
}
