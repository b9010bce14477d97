/// A JSON value together with the bytes every answer spells it with (``JSONWire``: sorted keys,
/// no whitespace), written once: for a result that never changes, such as `daemon.ping`'s, which
/// would otherwise be written anew for every request (a tenth of the daemon's time under
/// redis-benchmark's load, docs/performance.md).
public struct JSONText: Sendable, Hashable {
    public let value: JSONValue
    public let bytes: [UInt8]

    public init(_ value: JSONValue) throws {
        self.value = value
        bytes = try JSONWire.bytes(value)
    }
}
