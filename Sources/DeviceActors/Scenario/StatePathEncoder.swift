import SimulatediOS

/// Finds what a dotted path of `device.state` leads to by encoding only along the path: a
/// member off the path is never encoded, so checking `app.challenge.status` after every step
/// costs a few calls instead of encoding and parsing the app's whole state.
///
/// It answers what encoding to JSON and reading the path back answers: a `String`, `Int` or
/// `Bool` at the end is taken as is; anything else found there (an object, an array, a `Double`
/// with its JSON spelling) is handed back to be encoded on its own; a path that leads nowhere
/// (a missing member, an index out of range, a step into a string) finds nothing. A value that
/// builds its own containers at the end of the path (`nestedContainer`, `superEncoder`) is
/// `unsupported`, and the caller encodes the whole state instead.
enum StatePathEncoder {
    enum Found {
        case nothing
        case value(StoredValue)
        case subtree(any Encodable)
        case unsupported
    }

    static func find(_ path: ArraySlice<String>, in value: any Encodable) -> Found {
        guard !path.isEmpty else { return .subtree(value) }
        let probe = Probe()
        do {
            try value.encode(to: PathEncoder(path: path, probe: probe))
        } catch {
            return .unsupported
        }
        return probe.found
    }

    /// What the encoding found; the last write wins, as a key encoded twice in JSON.
    private final class Probe {
        var found = Found.nothing
    }

    private struct PathEncoder: Encoder {
        let path: ArraySlice<String>
        let probe: Probe
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(Keyed<Key>(path: path, probe: probe))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer { Unkeyed(path: path, probe: probe) }

        func singleValueContainer() -> any SingleValueEncodingContainer { Single(path: path, probe: probe) }
    }

    /// Records `value` as found at the end of the path, or follows the rest of the path into it.
    private static func offer<T: Encodable>(_ value: T, rest: ArraySlice<String>, probe: Probe) throws {
        guard rest.isEmpty else {
            switch value {
            case is String, is Int, is Bool: probe.found = .nothing
            default: try value.encode(to: PathEncoder(path: rest, probe: probe))
            }
            return
        }
        switch value {
        case let string as String: probe.found = .value(.string(string))
        case let int as Int: probe.found = .value(.int(int))
        case let bool as Bool: probe.found = .value(.bool(bool))
        default: probe.found = .subtree(value)
        }
    }

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let path: ArraySlice<String>
        let probe: Probe
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws {
            if key.stringValue == path.first { probe.found = .nothing }
        }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            guard key.stringValue == path.first else { return }
            try StatePathEncoder.offer(value, rest: path.dropFirst(), probe: probe)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            guard key.stringValue == path.first else { return KeyedEncodingContainer(Keyed<NestedKey>(path: [], probe: Probe())) }
            if path.count == 1 { probe.found = .unsupported }
            return KeyedEncodingContainer(Keyed<NestedKey>(path: path.dropFirst(), probe: path.count == 1 ? Probe() : probe))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            guard key.stringValue == path.first else { return Unkeyed(path: [], probe: Probe()) }
            if path.count == 1 { probe.found = .unsupported }
            return Unkeyed(path: path.dropFirst(), probe: path.count == 1 ? Probe() : probe)
        }

        mutating func superEncoder() -> any Encoder {
            probe.found = .unsupported
            return PathEncoder(path: [], probe: Probe())
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            if key.stringValue == path.first { probe.found = .unsupported }
            return PathEncoder(path: [], probe: Probe())
        }
    }

    private struct Unkeyed: UnkeyedEncodingContainer {
        let path: ArraySlice<String>
        let probe: Probe
        var count = 0
        var codingPath: [any CodingKey] { [] }

        /// Whether the item being encoded now is the one the path names.
        private var isWanted: Bool { path.first.flatMap { Int($0) } == count }

        mutating func encodeNil() throws {
            if isWanted { probe.found = .nothing }
            count += 1
        }

        mutating func encode<T: Encodable>(_ value: T) throws {
            if isWanted { try StatePathEncoder.offer(value, rest: path.dropFirst(), probe: probe) }
            count += 1
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            defer { count += 1 }
            guard isWanted else { return KeyedEncodingContainer(Keyed<NestedKey>(path: [], probe: Probe())) }
            if path.count == 1 { probe.found = .unsupported }
            return KeyedEncodingContainer(Keyed<NestedKey>(path: path.dropFirst(), probe: path.count == 1 ? Probe() : probe))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            defer { count += 1 }
            guard isWanted else { return Unkeyed(path: [], probe: Probe()) }
            if path.count == 1 { probe.found = .unsupported }
            return Unkeyed(path: path.dropFirst(), probe: path.count == 1 ? Probe() : probe)
        }

        mutating func superEncoder() -> any Encoder {
            if isWanted { probe.found = .unsupported }
            count += 1
            return PathEncoder(path: [], probe: Probe())
        }
    }

    /// A value that encodes as one value: the path goes on into it.
    private struct Single: SingleValueEncodingContainer {
        let path: ArraySlice<String>
        let probe: Probe
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil() throws { probe.found = .nothing }

        mutating func encode<T: Encodable>(_ value: T) throws {
            switch value {
            case is String, is Int, is Bool: probe.found = .nothing
            default: try value.encode(to: PathEncoder(path: path, probe: probe))
            }
        }
    }
}
