/// What a traced App Group read returned, when its trace entry carries it (scenario runs trace
/// every read with its value, docs/protocol.md `store.read`): on the wire `value`, or `null`
/// for a key the read found absent.
public enum ReadValue: Sendable, Equatable {
    case absent
    case value(StoredValue)

    public init(_ value: StoredValue?) {
        self = value.map(ReadValue.value) ?? .absent
    }

    /// The value read; nil when the key was absent.
    public var storedValue: StoredValue? {
        guard case .value(let value) = self else { return nil }
        return value
    }
}
