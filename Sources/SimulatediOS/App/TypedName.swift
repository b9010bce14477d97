/// A name iOS types (`DeviceActivityName`, `DeviceActivityEvent.Name`, `ManagedSettingsStore.Name`):
/// a string under a type of its own, written `Self("daily")` or as a literal. The conformances
/// come from here; each type only declares its `rawValue` and `init(rawValue:)`.
public protocol TypedName: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible where RawValue == String
{
    init(rawValue: String)
}

extension TypedName {
    public init(_ rawValue: String) { self.init(rawValue: rawValue) }
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    public var description: String { rawValue }
}
