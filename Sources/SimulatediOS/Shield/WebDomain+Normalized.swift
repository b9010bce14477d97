extension WebDomain {
    /// Why a text is not a website's domain, as an error message gives it after the field.
    public struct InvalidDomain: Error, Sendable, Equatable {
        public let reason: String
    }

    /// The longest domain (RFC 1035: 253 characters written out) and the longest label (63).
    static let maxLength = 253
    static let maxLabelLength = 63

    /// `text` as a website's domain the way iOS keeps one (`WebDomain`'s host): lowercased, and
    /// refused — never kept as given, so that `REDDIT.com` and `Reddit.com` are one website —
    /// when it is not a host name: empty; a character other than a letter, a digit (an
    /// internationalized name's marks included), `-`, `_` and the dots between labels — so no
    /// control or formatting character (`\u{0}`, the bidi overrides U+202A–U+202E and
    /// U+2066–U+2069, zero-width characters), space, scheme, path, port, query or user (`: / ?
    /// # @ %`); an empty label (`.reddit.com`, `reddit..com`, `reddit.com.`); a label over 63
    /// characters or a name over 253.
    public static func normalized(_ text: String) throws(InvalidDomain) -> String {
        let domain = text.lowercased()
        guard !domain.isEmpty else { throw InvalidDomain(reason: "must not be empty: a domain such as reddit.com") }
        if let scalar = domain.unicodeScalars.first(where: { !isHostCharacter($0) }) {
            throw InvalidDomain(
                reason: "must be a domain such as reddit.com: U+\(hex(scalar)) is not a letter, a digit, '-', '_' or '.' "
                    + "(no control, formatting or space character, scheme, path, port or query)")
        }
        guard domain.count <= maxLength else {
            throw InvalidDomain(reason: "must be a domain of at most \(maxLength) characters, got \(domain.count)")
        }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard !labels.contains(where: \.isEmpty) else {
            throw InvalidDomain(reason: "must be a domain such as reddit.com: an empty label (a leading, trailing or double dot)")
        }
        if let long = labels.first(where: { $0.count > maxLabelLength }) {
            throw InvalidDomain(reason: "must be a domain whose labels have at most \(maxLabelLength) characters, got \(long.count)")
        }
        return domain
    }

    /// `name` with a website's domain normalized (``normalized(_:)``) when it names one
    /// (`web:REDDIT.com` → `web:reddit.com`); an app's bundle id as it is.
    public static func normalizedForegroundName(_ name: String) throws(InvalidDomain) -> String {
        guard let domain = domain(ofForegroundName: name) else { return name }
        return foregroundName(try normalized(domain))
    }

    /// The domain as ``normalized(_:)`` makes it, or, for a text that is no domain, the text
    /// lowercased: for what cannot refuse (an app's own `DeviceActivityEvent(webDomains:)`, a
    /// value read back from a file). Such a text matches no website, since every way one opens
    /// refuses it.
    static func canonical(_ text: String) -> String {
        (try? normalized(text)) ?? text.lowercased()
    }

    /// A letter, a digit or a mark of one (what an internationalized label holds), `-`, `_`, `.`.
    private static func isHostCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .lowercaseLetter, .uppercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber,
            .nonspacingMark, .spacingMark:
            return true
        default:
            return scalar == "-" || scalar == "_" || scalar == "."
        }
    }

    private static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
