/// A JSON value as the bytes every answer spells it with (``JSONWire``: sorted keys, no
/// whitespace), written once: for a result that never changes, such as `daemon.ping`'s, which
/// would otherwise be written anew for every request (a tenth of the daemon's time under
/// redis-benchmark's load, docs/performance.md), and for one too large to hold twice, assembled
/// from parts encoded once (a recording's scenario).
public struct JSONText: Sendable, Hashable {
    public let bytes: [UInt8]

    public init(_ value: JSONValue) throws {
        bytes = try JSONWire.bytes(value)
    }

    /// Bytes written as ``JSONWire`` writes a value; the caller vouches that they are.
    public init(encoded bytes: [UInt8]) {
        self.bytes = bytes
    }
}
