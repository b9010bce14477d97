/// An app's own settings (`config.app` of its device, docs/protocol.md): a `Decodable` type of
/// the app's, every member optional on the wire (a missing one keeps its default), decoded when
/// the device is created and fixed from then on.
public protocol AppConfiguration: Decodable, Sendable {
    /// The members the type reads: any other in `config.app` is refused by name.
    static var members: [String] { get }
    /// Checks what decoding cannot (ranges, orders); throws
    /// ``DeviceError/invalidArgument(field:reason:)`` naming the member.
    func validate() throws(DeviceError)
}

extension AppConfiguration {
    public func validate() throws(DeviceError) {}

    /// Decodes `values` strictly: an unknown member, or one of the wrong type, is refused with
    /// its name as the field (`frictionThresholdsMinutes`, `thresholds[2]`). The refusal of an
    /// unknown member lists the known ones; when there are none it says that `app` (the wire
    /// name) takes no settings.
    public static func decode(
        _ values: [String: StoredValue], app: String? = nil
    ) throws(DeviceError) -> Self {
        if let unknown = values.keys.sorted().first(where: { !members.contains($0) }) {
            let known = members.sorted()
            throw .invalidArgument(
                field: unknown,
                reason: known.isEmpty
                    ? "unknown setting: \(app ?? "this app") takes no settings"
                    : "unknown setting (known: \(known.joined(separator: ", ")))")
        }
        let decoded: Self
        do {
            decoded = try StoredValueDecoder().decode(Self.self, from: .dictionary(values))
        } catch let DecodingError.typeMismatch(_, context) {
            throw .invalidArgument(field: field(context.codingPath), reason: context.debugDescription)
        } catch let DecodingError.dataCorrupted(context) {
            throw .invalidArgument(field: field(context.codingPath), reason: context.debugDescription)
        } catch let DecodingError.valueNotFound(_, context) {
            throw .invalidArgument(field: field(context.codingPath), reason: context.debugDescription)
        } catch let DecodingError.keyNotFound(key, context) {
            throw .invalidArgument(field: field(context.codingPath + [key]), reason: "missing")
        } catch {
            throw .invalidArgument(field: "", reason: "\(error)")
        }
        try decoded.validate()
        return decoded
    }

    private static func field(_ path: [any CodingKey]) -> String {
        path.reduce("") { field, key in
            if let index = key.intValue { return "\(field)[\(index)]" }
            return field.isEmpty ? key.stringValue : "\(field).\(key.stringValue)"
        }
    }
}
