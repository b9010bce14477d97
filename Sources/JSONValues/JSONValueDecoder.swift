import Foundation

/// A field a request got wrong: its JSON path (`args.apps[1]`, `config.quirks`) and why.
/// The daemon answers it as -32602 with `data` `{"field", "reason"}`.
public struct FieldError: Error, Sendable, Equatable, CustomStringConvertible {
    public let field: String
    public let reason: String

    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String { field.isEmpty ? reason : "\(field): \(reason)" }
}

/// Decodes `Decodable` types straight from a ``JSONValue`` tree, strictly, so that a typo is an
/// error instead of a silently ignored field:
///
/// - a member of an object that the type never asked for is refused as `unknown`, with the
///   nearest name the type did ask for (`args.enable: unknown; did you mean enabled?`);
/// - numbers must fit the asked type exactly: no `1.5` or `1e19` for an `Int`;
/// - `null` is absent for optional fields and refused for required ones;
/// - every error names the field by its JSON path below `root` (`args.contacts[2].id`);
/// - `Data` is Base64 text, as ``JSONWire`` and `JSONEncoder` write it.
///
/// A type that reads every member (a dictionary, ``JSONValue``) accepts any member. Errors a type
/// throws itself as `DecodingError.dataCorrupted` keep their coding path and description; any
/// other error it throws (a domain error such as "unknown event type") passes through unchanged.
///
/// With `unknownMembers: .ignore` (for files the daemon wrote itself, which a later version may
/// read) members nobody asked for are skipped, as `JSONDecoder` does.
public struct JSONValueDecoder: Sendable {
    /// What to do with a member the decoded type never asked for.
    public enum UnknownMembers: Sendable {
        case refuse
        case ignore
    }

    public var unknownMembers: UnknownMembers
    /// What the decoded types find in their decoder's `userInfo` (the names a config takes).
    public var userInfo: [CodingUserInfoKey: any Sendable]

    public init(unknownMembers: UnknownMembers = .refuse, userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
        self.unknownMembers = unknownMembers
        self.userInfo = userInfo
    }

    /// Decodes `type` from `value`, which sits at `root` in the request (`""` at the top, `"args"`
    /// for an intent's arguments). Throws ``FieldError`` for anything wrong with the input.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, root: String = "") throws -> T {
        let tracker = MemberTracker(userInfo: userInfo)
        let decoder = ValueDecoder(value: value, codingPath: [], tracker: tracker)
        let decoded: T
        do {
            decoded = try T(from: decoder)
        } catch let error as DecodingError {
            throw tracker.fieldError(for: error, root: root)
        }
        if unknownMembers == .refuse, let unknown = tracker.firstUnknownMember(root: root) { throw unknown }
        return decoded
    }
}

// MARK: - Paths

/// A JSON path for messages: members joined by `.`, array indices in brackets.
func jsonPath(root: String, _ codingPath: [any CodingKey]) -> String {
    codingPath.reduce(root) { path, key in
        if let index = key.intValue { return "\(path)[\(index)]" }
        return path.isEmpty ? key.stringValue : "\(path).\(key.stringValue)"
    }
}

private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct NameKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

// MARK: - Which members were asked for

/// Records, per object of the input, the members it has and the ones the decoded types asked
/// for (read, tested with `contains`, or listed with `allKeys`), to find members nobody wanted.
private final class MemberTracker {
    struct Object {
        var codingPath: [any CodingKey]
        var members: [String]
        var asked: Set<String> = []
        var askedAll = false
    }

    /// The decoder's `userInfo`, the same at every level.
    let userInfo: [CodingUserInfoKey: Any]

    init(userInfo: [CodingUserInfoKey: Any]) {
        self.userInfo = userInfo
    }

    /// By path, in the order first seen.
    private var objects: [String: Object] = [:]
    private var order: [String] = []

    func register(_ members: [String: JSONValue], at codingPath: [any CodingKey]) -> String {
        let key = jsonPath(root: "", codingPath)
        if objects[key] == nil {
            objects[key] = Object(codingPath: codingPath, members: members.keys.sorted())
            order.append(key)
        }
        return key
    }

    func ask(_ member: String, in object: String) {
        objects[object]?.asked.insert(member)
    }

    func askAll(in object: String) {
        objects[object]?.askedAll = true
    }

    /// The first member, in input order of objects and name order within one, that no type asked for.
    func firstUnknownMember(root: String) -> FieldError? {
        for key in order {
            guard let object = objects[key], !object.askedAll else { continue }
            if let member = object.members.first(where: { !object.asked.contains($0) }) {
                return unknown(member, in: object, root: root)
            }
        }
        return nil
    }

    private func unknown(_ member: String, in object: Object, root: String) -> FieldError {
        let field = jsonPath(root: root, object.codingPath + [NameKey(member)])
        let known = object.asked.sorted()
        if let near = Spelling.nearest(to: member, among: object.asked.sorted()) {
            return FieldError(field: field, reason: "unknown; did you mean \(near)?")
        }
        if known.isEmpty { return FieldError(field: field, reason: "unknown; this object takes no other fields") }
        return FieldError(field: field, reason: "unknown; expected one of \(known.joined(separator: ", "))")
    }

    /// The field error for a failed decode. A required member that is missing next to an unknown
    /// one with a near name is reported as the unknown one: that is the typo.
    func fieldError(for error: DecodingError, root: String) -> FieldError {
        switch error {
        case .keyNotFound(let key, let context):
            let objectKey = jsonPath(root: "", context.codingPath)
            if let object = objects[objectKey] {
                let unasked = object.members.filter { !object.asked.contains($0) }
                if let typo = Spelling.nearest(to: key.stringValue, among: unasked) {
                    let field = jsonPath(root: root, context.codingPath + [NameKey(typo)])
                    return FieldError(field: field, reason: "unknown; did you mean \(key.stringValue)?")
                }
            }
            return FieldError(field: jsonPath(root: root, context.codingPath + [key]), reason: "required")
        case .valueNotFound(_, let context):
            return FieldError(field: jsonPath(root: root, context.codingPath), reason: "must not be null")
        case .typeMismatch(_, let context), .dataCorrupted(let context):
            return FieldError(field: jsonPath(root: root, context.codingPath), reason: context.debugDescription)
        @unknown default:
            return FieldError(field: root, reason: "\(error)")
        }
    }
}

// MARK: - The decoder

private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let tracker: MemberTracker
    var userInfo: [CodingUserInfoKey: Any] { tracker.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw mismatch(codingPath, expected: "an object", got: value)
        }
        let object = tracker.register(members, at: codingPath)
        return KeyedDecodingContainer(
            KeyedValues<Key>(members: members, object: object, codingPath: codingPath, tracker: tracker))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch(codingPath, expected: "an array", got: value) }
        return UnkeyedValues(items: items, codingPath: codingPath, tracker: tracker)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValue(value: value, codingPath: codingPath, tracker: tracker)
    }
}

/// "expected a string, got a number (5)".
private func mismatch(_ codingPath: [any CodingKey], expected: String, got value: JSONValue) -> DecodingError {
    let shown: String
    switch value {
    case .int(let number): shown = "a number (\(number))"
    case .double(let number): shown = "a number (\(number))"
    case .bool(let flag): shown = "a boolean (\(flag))"
    case .null: shown = "null"
    case .string: shown = "a string"
    case .array: shown = "an array"
    case .object: shown = "an object"
    }
    return DecodingError.typeMismatch(
        Any.self, DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(expected), got \(shown)"))
}

/// Scalars, shared by the three container kinds.
private enum Scalar {
    static func bool(_ value: JSONValue, _ path: [any CodingKey]) throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch(path, expected: "a boolean", got: value) }
        return flag
    }

    static func string(_ value: JSONValue, _ path: [any CodingKey]) throws -> String {
        guard case .string(let text) = value else { throw mismatch(path, expected: "a string", got: value) }
        return text
    }

    static func double(_ value: JSONValue, _ path: [any CodingKey]) throws -> Double {
        switch value {
        case .int(let number): return Double(number)
        case .double(let number): return number
        default: throw mismatch(path, expected: "a number", got: value)
        }
    }

    /// An integer of type `T`: whole, and within `T`'s range as JSON can carry it exactly (a
    /// number beyond `Int`'s range arrives as a rounded double, and is refused).
    static func integer<T: FixedWidthInteger>(_ value: JSONValue, _ path: [any CodingKey], as type: T.Type) throws -> T {
        let upper = T.max > T(clamping: Int.max) ? "\(Int.max)" : "\(T.max)"
        func outOfRange(_ shown: String) -> DecodingError {
            .dataCorrupted(.init(codingPath: path, debugDescription: "\(shown) is out of range (\(T.min) to \(upper))"))
        }
        switch value {
        case .int(let number):
            guard let exact = T(exactly: number) else { throw outOfRange("\(number)") }
            return exact
        case .double(let number):
            guard number.rounded() == number else {
                throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "expected a whole number, got \(number)"))
            }
            // Integers beyond 2^53 read as doubles are already rounded: refuse rather than guess.
            guard abs(number) < 9_007_199_254_740_992, let exact = T(exactly: number) else {
                throw outOfRange("\(number)")
            }
            return exact
        default:
            throw mismatch(path, expected: "an integer", got: value)
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue, _ path: [any CodingKey], _ tracker: MemberTracker) throws -> T {
        switch type {
        case is Bool.Type: return try bool(value, path) as! T
        case is String.Type: return try string(value, path) as! T
        case is Double.Type: return try double(value, path) as! T
        case is Float.Type: return Float(try double(value, path)) as! T
        case is Int.Type: return try integer(value, path, as: Int.self) as! T
        case is Int64.Type: return try integer(value, path, as: Int64.self) as! T
        case is Int32.Type: return try integer(value, path, as: Int32.self) as! T
        case is UInt64.Type: return try integer(value, path, as: UInt64.self) as! T
        case is UInt32.Type: return try integer(value, path, as: UInt32.self) as! T
        case is UInt.Type: return try integer(value, path, as: UInt.self) as! T
        case is Data.Type:
            guard let data = Data(base64Encoded: try string(value, path)) else {
                throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "expected Base64 data"))
            }
            return data as! T
        case is JSONValue.Type:
            if case .object(let members) = value { tracker.askAll(in: tracker.register(members, at: path)) }
            return value as! T
        default:
            do {
                return try T(from: ValueDecoder(value: value, codingPath: path, tracker: tracker))
            } catch DecodingError.dataCorrupted(let context) where context.codingPath.count == path.count {
                throw namingTheChoices(of: T.self, value, context)
            }
        }
    }

    /// A string enum's synthesized refusal of a name it has no case for ("Cannot initialize
    /// StrategyKind from invalid String value DFS": Swift's words, naming a type the user never
    /// sees) said as the protocol says it: `one of fifo, random, pct, dfs` (for an enum that is
    /// not `CaseIterable`, that the name is not one it takes). A refusal the type wrote itself
    /// stays as it was.
    private static func namingTheChoices<T>(of type: T.Type, _ value: JSONValue, _ context: DecodingError.Context)
        -> DecodingError
    {
        guard case .string(let name) = value, context.debugDescription.hasPrefix("Cannot initialize ") else {
            return .dataCorrupted(context)
        }
        let names = (type as? any (RawRepresentable & CaseIterable).Type).flatMap { rawNames(of: $0) }
        let reason = names.map { "one of \($0.joined(separator: ", "))" } ?? "\(name.debugDescription) is not a value this field takes"
        return .dataCorrupted(.init(codingPath: context.codingPath, debugDescription: reason))
    }

    private static func rawNames<Choice: RawRepresentable & CaseIterable>(of type: Choice.Type) -> [String]? {
        let names = Choice.allCases.compactMap { $0.rawValue as? String }
        return names.count == Choice.allCases.count ? names : nil
    }
}

private struct KeyedValues<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let object: String
    let codingPath: [any CodingKey]
    let tracker: MemberTracker

    var allKeys: [Key] {
        tracker.askAll(in: object)
        return members.keys.sorted().compactMap { Key(stringValue: $0) }
    }

    func contains(_ key: Key) -> Bool {
        tracker.ask(key.stringValue, in: object)
        return members[key.stringValue] != nil
    }

    private func present(_ key: Key) throws -> JSONValue {
        tracker.ask(key.stringValue, in: object)
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "required"))
        }
        if case .null = value {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath + [key], debugDescription: "must not be null"))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        tracker.ask(key.stringValue, in: object)
        guard let value = members[key.stringValue] else { return true }
        return value == .null
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try Scalar.decode(type, try present(key), codingPath + [key], tracker)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        tracker.ask(key.stringValue, in: object)
        guard let value = members[key.stringValue], value != .null else { return nil }
        return try Scalar.decode(type, value, codingPath + [key], tracker)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try ValueDecoder(value: try present(key), codingPath: codingPath + [key], tracker: tracker).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: try present(key), codingPath: codingPath + [key], tracker: tracker).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: .object(members), codingPath: codingPath, tracker: tracker)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        tracker.ask(key.stringValue, in: object)
        return ValueDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key], tracker: tracker)
    }
}

private struct UnkeyedValues: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let codingPath: [any CodingKey]
    let tracker: MemberTracker
    private(set) var currentIndex = 0

    init(items: [JSONValue], codingPath: [any CodingKey], tracker: MemberTracker) {
        self.items = items
        self.codingPath = codingPath
        self.tracker = tracker
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private var here: [any CodingKey] { codingPath + [IndexKey(currentIndex)] }

    private mutating func next() throws -> (JSONValue, [any CodingKey]) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: here, debugDescription: "the array ended"))
        }
        defer { currentIndex += 1 }
        return (items[currentIndex], here)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next()
        if case .null = value {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: path, debugDescription: "must not be null"))
        }
        return try Scalar.decode(type, value, path, tracker)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let (value, path) = try next()
        return try ValueDecoder(value: value, codingPath: path, tracker: tracker).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next()
        return try ValueDecoder(value: value, codingPath: path, tracker: tracker).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next()
        return ValueDecoder(value: value, codingPath: path, tracker: tracker)
    }
}

private struct SingleValue: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let tracker: MemberTracker

    func decodeNil() -> Bool { value == .null }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if case .null = value {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "must not be null"))
        }
        return try Scalar.decode(type, value, codingPath, tracker)
    }
}
