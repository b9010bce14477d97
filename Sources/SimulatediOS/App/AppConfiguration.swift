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
    /// name) takes no settings. What decoded is remembered process-wide: every schedule of an
    /// exploration makes its device from the same settings (decoding them was 1.6 % of it).
    public static func decode(
        _ values: [String: StoredValue], app: String? = nil
    ) throws(DeviceError) -> Self {
        let key = DecodedSettingsKey(type: ObjectIdentifier(Self.self), values: values)
        let decoded = try decodedSettings.value(for: key) { _ throws(DeviceError) in try decodeAfresh(values, app: app) }
        // The key names the type: what it holds is a `Self`.
        return decoded as! Self
    }

    private static func decodeAfresh(
        _ values: [String: StoredValue], app: String?
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

/// A settings type and the values decoded into it.
private struct DecodedSettingsKey: Hashable, Sendable {
    let type: ObjectIdentifier
    let values: [String: StoredValue]
}

/// Settings decoded by any device of the process (``AppConfiguration/decode(_:app:)``).
private let decodedSettings = SharedMemo<DecodedSettingsKey, any Sendable>(capacity: 256)
