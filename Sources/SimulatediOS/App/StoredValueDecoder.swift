import Foundation

/// Decodes a `Decodable` from a ``StoredValue`` tree, with the path of whatever does not fit
/// (`frictionThresholdsMinutes[0]`: a fraction where a whole number belongs), which a round trip
/// through `JSONDecoder` loses. Numbers convert as JSON's do: `2.0` is a whole number, `1.5` is
/// not; an absent member decodes as nil where the type allows it.
struct StoredValueDecoder {
    func decode<T: Decodable>(_ type: T.Type, from value: StoredValue) throws -> T {
        try T(from: Node(value: value, codingPath: []))
    }

    private struct Node: Decoder, SingleValueDecodingContainer {
        let value: StoredValue
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            guard case .dictionary(let members) = value else { throw mismatch("an object") }
            return KeyedDecodingContainer(Keyed<Key>(members: members, codingPath: codingPath))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            guard case .array(let items) = value else { throw mismatch("an array") }
            return Unkeyed(items: items, codingPath: codingPath)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

        func decodeNil() -> Bool { false }

        func decode(_ type: Bool.Type) throws -> Bool {
            guard case .bool(let bool) = value else { throw mismatch("true or false") }
            return bool
        }

        func decode(_ type: String.Type) throws -> String {
            guard case .string(let string) = value else { throw mismatch("a string") }
            return string
        }

        func decode(_ type: Double.Type) throws -> Double {
            switch value {
            case .int(let int): return Double(int)
            case .double(let double): return double
            default: throw mismatch("a number")
            }
        }

        func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }

        func decode(_ type: Int.Type) throws -> Int { try whole(type) }
        func decode(_ type: Int8.Type) throws -> Int8 { try whole(type) }
        func decode(_ type: Int16.Type) throws -> Int16 { try whole(type) }
        func decode(_ type: Int32.Type) throws -> Int32 { try whole(type) }
        func decode(_ type: Int64.Type) throws -> Int64 { try whole(type) }
        func decode(_ type: UInt.Type) throws -> UInt { try whole(type) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try whole(type) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try whole(type) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try whole(type) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try whole(type) }

        private func whole<T: BinaryInteger>(_ type: T.Type) throws -> T {
            let whole: T?
            switch value {
            case .int(let int): whole = T(exactly: int)
            case .double(let double): whole = double.rounded() == double ? T(exactly: double) : nil
            default: throw mismatch("a whole number")
            }
            guard let whole else { throw mismatch("a whole number that fits \(T.self)") }
            return whole
        }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            if type == StoredValue.self, let value = value as? T { return value }
            return try T(from: self)
        }

        private func mismatch(_ expected: String) -> DecodingError {
            .typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "expected \(expected)"))
        }
    }

    private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [String: StoredValue]
        let codingPath: [any CodingKey]

        var allKeys: [Key] { members.keys.sorted().compactMap(Key.init(stringValue:)) }

        func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

        func decodeNil(forKey key: Key) throws -> Bool { members[key.stringValue] == nil }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            guard let member = members[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
            }
            return try Node(value: member, codingPath: codingPath + [key]).decode(type)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try node(key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try node(key).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { Node(value: .dictionary(members), codingPath: codingPath) }

        func superDecoder(forKey key: Key) throws -> any Decoder { try node(key) }

        private func node(_ key: Key) throws -> Node {
            guard let member = members[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
            }
            return Node(value: member, codingPath: codingPath + [key])
        }
    }

    private struct Unkeyed: UnkeyedDecodingContainer {
        let items: [StoredValue]
        let codingPath: [any CodingKey]
        var currentIndex = 0

        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        mutating func decodeNil() throws -> Bool { false }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try next().decode(type)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try next().container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try next().unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder { try next() }

        private mutating func next() throws -> Node {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    Any.self, .init(codingPath: codingPath + [Index(currentIndex)], debugDescription: "no more items"))
            }
            defer { currentIndex += 1 }
            return Node(value: items[currentIndex], codingPath: codingPath + [Index(currentIndex)])
        }
    }

    private struct Index: CodingKey {
        let intValue: Int?
        var stringValue: String { "\(intValue ?? 0)" }
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }
}
