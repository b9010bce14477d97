import SimulatediOS

/// ScrollKitty's settings (`config.app` of a device). `variant` switches on one of the seed's
/// likely mistakes (APPS.md 1.5); the default is the correct port. Of the seed's variants only
/// `extensionTimer` is built yet; `hpDailyReset` (APPS.md 1.3) is a later task, so it is refused.
public struct ScrollKittySettings: AppConfiguration, Equatable {
    /// The port as written (`correct`), or one of the seed's mistakes.
    public enum Variant: String, Sendable, CaseIterable {
        case correct
        /// The re-shield timer kept in ShieldAction (seed 004: "Unblocks App -> Sets Timer"): it
        /// dies with the extension, so the shield never returns (Critical Issue 2).
        case extensionTimer
    }

    public static let members = ["variant"]
    public var variant = Variant.correct

    public init(variant: Variant = .correct) {
        self.variant = variant
    }

    private enum Member: String, CodingKey { case variant }

    public init(from decoder: any Decoder) throws {
        let members = try decoder.container(keyedBy: Member.self)
        guard let name = try members.decodeIfPresent(String.self, forKey: .variant) else { return }
        guard let variant = Variant(rawValue: name) else {
            let known = Variant.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(forKey: .variant, in: members, debugDescription: "one of \(known)")
        }
        self.variant = variant
    }
}
