/// A setting that is one of a few names (`allow` / `deny`): decoded strictly, and a wrong name is
/// refused with the names it could have been (`one of allow, deny`), which the daemon shows as
/// the field's reason.
public protocol NamedChoice: RawRepresentable, CaseIterable, Decodable where RawValue == String {}

extension NamedChoice {
    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        guard let choice = Self(rawValue: try value.decode(String.self)) else {
            let names = Self.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(in: value, debugDescription: "one of \(names)")
        }
        self = choice
    }
}
